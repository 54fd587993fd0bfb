using System.Text.Json;

namespace RpcCompare.Runner.Tests.Push;

/// <summary>A selection of the push suite alone: no call suites, so nothing of theirs in the output.</summary>
public sealed class PushOnlyRunTests(PushOnlyRunTests.PushOnlyRun run) : IClassFixture<PushOnlyRunTests.PushOnlyRun>
{
    [Fact]
    public void Console_ShowsThePushPlan_AndNoEmptyCallMeasurement()
    {
        Assert.True(run.ExitCode == 0, run.Console);
        Assert.DoesNotContain("about 0 s planned", run.Console, StringComparison.Ordinal);
        Assert.Contains("push · broadcast · pipes", run.Console, StringComparison.Ordinal);
    }

    [Fact]
    public void Report_HasThePushTables_AndNoRepeatabilityOfNothing()
    {
        Assert.Empty(run.Measurements);
        Assert.Single(run.Root.GetProperty("push").GetProperty("broadcast").EnumerateArray());
        Assert.True(!run.Root.TryGetProperty("repeatability", out var repeatability) || repeatability.ValueKind == JsonValueKind.Null,
            $"--repeat over no call measurements compared nothing: {repeatability}");
    }

    public sealed class PushOnlyRun : RunnerRun
    {
        protected override string[] Arguments => ["--quick", "--suite", "push", "--bindings", "pipes", "--repeat", "2"];
    }
}
