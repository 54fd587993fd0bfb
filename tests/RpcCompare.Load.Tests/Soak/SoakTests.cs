using RpcCompare.Load.Soak;

namespace RpcCompare.Load.Tests.Soak;

/// <summary>A short soak of one binding: the host sampled every second, judged, reported with its chart data.</summary>
[Collection(NBomberSessions.Name)]
public sealed class SoakTests : IClassFixture<SoakTests.ShortSoak>
{
    private readonly ShortSoak _run;

    public SoakTests(ShortSoak run)
    {
        _run = run;
    }

    [Fact]
    public void SamplesTheHostEverySecond_AndPasses()
    {
        Assert.True(_run.ExitCode == 0, _run.Console);
        var soak = Assert.Single(_run.Report!.Soaks);

        Assert.Equal("pipes", soak.Binding);
        Assert.True(soak.Passed, string.Join("; ", soak.Problems));
        Assert.True(soak.Ok > 0);
        Assert.Equal(0, soak.Failed);
        // Every second while the NBomber session ran (its start-up and wind-down take longer on a busy
        // machine, so the count is not fixed): at least the soak's length, and never more than one a second.
        Assert.True(soak.Samples.Count >= 10, $"{soak.Samples.Count} samples in a 12-second soak");
        Assert.True(soak.Samples.Count <= soak.Samples[^1].Seconds + 1, $"{soak.Samples.Count} samples in {soak.Samples[^1].Seconds:0.0} s");
        Assert.All(soak.Samples, s =>
        {
            Assert.True(s.RssBytes > 0);
            Assert.True(s.Threads > 0);
            Assert.True(s.Handles > 0);
            Assert.True(s.Sockets > 0); // the host listens on sockets
        });
        Assert.Contains(soak.Samples, s => s.GcHeapBytes > 0);
    }

    [Fact]
    public void Dashboard_ShowsTheSoaksP99_ReadBackFromTheReport()
    {
        var soak = Assert.Single(_run.Report!.Soaks);

        var figure = _run.DashboardEntry.Figures["soakP99"]["pipes"];

        Assert.Equal(soak.Latency.P99, figure.Value);
        Assert.EndsWith("/s per operation, passed", figure.Text, StringComparison.Ordinal);
    }

    [Fact]
    public void Report_StatesTheCriterion_AndHasTheSoakTable()
    {
        var markdown = File.ReadAllText(Path.Combine(_run.Directory, "report.md"));

        Assert.Contains("| binding | verdict | rate/s | minutes | calls | failed | p50 / p99 ms | RSS MB | GC heap MB | gen-2 GCs | descriptors | sockets | threads |", markdown, StringComparison.Ordinal);
        Assert.Contains("| pipes | passed | 200 × 1 |", markdown, StringComparison.Ordinal);
        Assert.Contains("Criterion: " + SoakVerdict.Criterion, markdown, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("90s", 90)]
    [InlineData("10m", 600)]
    [InlineData("1h", 3600)]
    [InlineData("45", 45)]
    [InlineData("00:02:00", 120)]
    public void Durations_ReadAsPeopleWriteThem(string text, double seconds) =>
        Assert.Equal(TimeSpan.FromSeconds(seconds), SoakSettings.ParseDuration(text));

    [Fact]
    public async Task ANonsenseDuration_IsAUsageError()
    {
        var (exitCode, console) = await LoadCommandRun.InvokeAsync(["--soak", "ten minutes"]);

        Assert.Equal(2, exitCode);
        Assert.Contains("'ten minutes' is not a duration", console, StringComparison.Ordinal);
    }

    public sealed class ShortSoak : LoadCommandRun
    {
        protected override string[] Arguments => ["--soak", "12s", "--rate", "200", "--bindings", "pipes", "--warmup-seconds", "0.5"];
    }
}
