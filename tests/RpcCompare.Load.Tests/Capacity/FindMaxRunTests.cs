using System.Globalization;
using RpcCompare.Load.Capacity;

namespace RpcCompare.Load.Tests.Capacity;

/// <summary>
/// --find-max over one binding with a low ceiling: each step is an NBomber session, the rates tried
/// follow the search from the verdicts NBomber's statistics gave, the capacity table is the report's
/// headline. Where the capacity lies is not asserted (a busy CI machine may break even 50/s).
/// </summary>
[Collection(NBomberSessions.Name)]
public sealed class FindMaxRunTests : IClassFixture<FindMaxRunTests.ShortSearch>
{
    private readonly ShortSearch _run;

    public FindMaxRunTests(ShortSearch run)
    {
        _run = run;
    }

    [Fact]
    public async Task Steps_FollowTheSearch_OneNBomberSessionPerStep()
    {
        Assert.True(_run.ExitCode == 0, _run.Console);
        var cell = Assert.Single(_run.Report!.Capacities);
        var seen = string.Join(", ", cell.Steps.Select(s => $"{s.Rate}/s {s.Verdict}"));

        // Whether a step holds depends on the machine; the rates tried after it must not. Replaying
        // the search with the verdicts NBomber's statistics gave must retrace the run step by step.
        var (capacity, replayed) = await CapacitySearch.RunAsync(
            new CapacitySettings(50, TimeSpan.FromSeconds(1), 50, 200, 0.25),
            rate => Task.FromResult(cell.Steps.First(s => s.Rate == rate)));
        Assert.True(cell.Steps.Select(s => s.Rate).SequenceEqual(replayed.Select(s => s.Rate)), seen);
        Assert.Equal(50, cell.Steps[0].Rate);
        Assert.Equal(capacity, cell.Capacity);
        Assert.Equal(cell.Capacity == 200, cell.ReachedCeiling);
        Assert.All(cell.Steps, s => Assert.True(s.Held == (s.Verdict == "held"), seen));
        Assert.All(cell.Steps, s => Assert.True(s.Ok + s.Failed > 0, seen));
        Assert.All(cell.Steps, s => Assert.True(File.Exists(Path.Combine(cell.ReportFolder, s.Rate.ToString(CultureInfo.InvariantCulture), $"ping-{s.Rate}-per-s.html")), seen));
    }

    [Fact]
    public void Report_LeadsWithTheCapacityTable()
    {
        var markdown = File.ReadAllText(Path.Combine(_run.Directory, "report.md"));
        var cell = Assert.Single(_run.Report!.Capacities);
        var figure = cell switch
        {
            { Capacity: null } => "none",
            { ReachedCeiling: true } => $"≥ {cell.Capacity}",
            _ => cell.Capacity!.Value.ToString(CultureInfo.InvariantCulture),
        };

        Assert.Contains("## Capacity: calls/s held for 1 s with p99 ≤ 50 ms and no failed call", markdown, StringComparison.Ordinal);
        Assert.Contains($"| ping | {figure} |", markdown, StringComparison.Ordinal);
        Assert.Contains("## pipes · ping: every step", markdown, StringComparison.Ordinal);
        Assert.True(markdown.IndexOf("## Capacity", StringComparison.Ordinal) < markdown.IndexOf("every step", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Report_Html_DrawsTheCapacityAndStepCharts()
    {
        var page = await RpcCompare.Testing.HeadlessChromium.RenderAsync(Path.Combine(_run.Directory, "report.html"));

        Assert.Null(page.Error);
        Assert.Equal(2, page.ChartsDrawn);
    }

    public sealed class ShortSearch : LoadCommandRun
    {
        protected override string[] Arguments =>
            ["--find-max", "--quick", "--bindings", "pipes", "--operations", "ping", "--start-rate", "50", "--max-rate", "200", "--latency-budget-ms", "50"];
    }
}
