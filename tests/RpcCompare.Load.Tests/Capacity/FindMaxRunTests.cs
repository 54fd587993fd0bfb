namespace RpcCompare.Load.Tests.Capacity;

/// <summary>
/// --find-max over one binding with a low ceiling: each step is an NBomber session, the capacity
/// table is the report's headline. (Where the capacity lies is not asserted: the ceiling here is far
/// below what the binding carries, so the search must end at it.)
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
    public void DoublesUpToTheCeiling_OneNBomberSessionPerStep()
    {
        Assert.True(_run.ExitCode == 0, _run.Console);
        var cell = Assert.Single(_run.Report!.Capacities);

        Assert.Equal([50, 100, 200], cell.Steps.Select(s => s.Rate));
        Assert.All(cell.Steps, s => Assert.True(s.Held, s.Verdict));
        Assert.Equal(200, cell.Capacity);
        Assert.True(cell.ReachedCeiling);
        Assert.All(cell.Steps, s => Assert.True(File.Exists(Path.Combine(cell.ReportFolder, s.Rate.ToString(System.Globalization.CultureInfo.InvariantCulture), $"ping-{s.Rate}-per-s.html"))));
    }

    [Fact]
    public void Report_LeadsWithTheCapacityTable()
    {
        var markdown = File.ReadAllText(Path.Combine(_run.Directory, "report.md"));

        Assert.Contains("## Capacity: calls/s held for 1 s with p99 ≤ 50 ms and no failed call", markdown, StringComparison.Ordinal);
        Assert.Contains("| ping | ≥ 200 |", markdown, StringComparison.Ordinal);
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
