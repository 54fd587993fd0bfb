namespace RpcCompare.Runner.Tests;

/// <summary>The stopping rule in a real run: a target no ratio can meet takes every row to --max-trials, and the reports say so.</summary>
public sealed class PrecisionRunTests(PrecisionRunTests.PrecisionRun run) : IClassFixture<PrecisionRunTests.PrecisionRun>
{
    [Fact]
    public void EveryRow_TakesTrialsUpToTheMost_WhileItsRatiosAreWiderThanTheTarget()
    {
        Assert.True(run.ExitCode == 0, run.Console);
        Assert.All(run.Measurements, m => Assert.Equal(4, m.GetProperty("trials").GetInt32()));
        Assert.Contains("more trials, up to 4", run.Console, StringComparison.Ordinal);
        Assert.Contains("still wider than ±0% after 4 trials: inproc ±", run.Console, StringComparison.Ordinal);
        Assert.Equal(4, run.Root.GetProperty("settings").GetProperty("maxTrials").GetInt32());
    }

    [Fact]
    public void EveryRatioToPipes_CarriesItsInterval_InTheJsonAndTheTables()
    {
        var inproc = run.Measurements.Where(m => m.GetProperty("binding").GetString() == "inproc").ToList();
        Assert.NotEmpty(inproc);
        Assert.All(inproc, m =>
        {
            var ratio = m.GetProperty("ratioToPipesSpread");
            var interval = ratio.GetProperty("interval");
            Assert.True(interval.GetProperty("low").GetDouble() <= ratio.GetProperty("median").GetDouble() * 1.5, ratio.ToString());
            Assert.True(interval.GetProperty("low").GetDouble() < interval.GetProperty("high").GetDouble(), ratio.ToString());
        });
        var markdown = File.ReadAllText(Path.Combine(run.Directory, "report.md"));
        Assert.Contains("ratio to pipes, median (min–max) of side-by-side trials ± its interval", markdown, StringComparison.Ordinal);
        Assert.Matches(@"\d\.\d{3} \(\d\.\d{3}–\d\.\d{3}\) ±\d+\.\d%", markdown);
        Assert.Contains("up to 4 in a row while a ratio to pipes", markdown, StringComparison.Ordinal);
    }

    public sealed class PrecisionRun : RunnerRun
    {
        // --precision 0.0001 (percent): a target no two trials meet.
        protected override string[] Arguments => ["--quick", "--suite", "ops", "--bindings", "pipes,inproc", "--max-trials", "4", "--precision", "0.0001"];
    }
}

/// <summary>The same run with a target every ratio meets: no row takes a trial past the minimum.</summary>
public sealed class LoosePrecisionRunTests(LoosePrecisionRunTests.LooseRun run) : IClassFixture<LoosePrecisionRunTests.LooseRun>
{
    [Fact]
    public void NoRow_TakesMoreThanTheMinimum_WhenItsRatiosAreWithinTheTarget()
    {
        Assert.True(run.ExitCode == 0, run.Console);
        Assert.All(run.Measurements, m => Assert.Equal(2, m.GetProperty("trials").GetInt32()));
        Assert.DoesNotContain("more trials", run.Console, StringComparison.Ordinal);
        Assert.DoesNotContain("still wider", run.Console, StringComparison.Ordinal);
    }

    public sealed class LooseRun : RunnerRun
    {
        // --precision 1e300 (percent): a target any two trials meet. (1e9 was not: a 0.1-s trial of pipes that
        // stalled at 321 calls/s against 20,000 made inproc's two ratios 60-fold apart, ±2e12%.)
        protected override string[] Arguments => ["--quick", "--suite", "ops", "--bindings", "pipes,inproc", "--max-trials", "4", "--precision", "1e300"];
    }
}
