namespace RpcCompare.Runner.Tests;

/// <summary>--repeat: the whole selection twice in one invocation, trials pooled, movement reported.</summary>
public sealed class RepeatRunTests(RepeatRunTests.RepeatRun run) : IClassFixture<RepeatRunTests.RepeatRun>
{
    [Fact]
    public void Report_PoolsTheTrialsOfBothRepetitions()
    {
        Assert.True(run.ExitCode == 0, run.Console);
        Assert.Equal(2, run.Root.GetProperty("settings").GetProperty("repetitions").GetInt32());
        Assert.All(run.Measurements, m => Assert.Equal(4, m.GetProperty("trials").GetInt32()));
    }

    [Fact]
    public void Repeatability_ListsEveryHeadlineWithBothValuesAndItsDeviation()
    {
        var repeatability = run.Root.GetProperty("repeatability");
        var headlines = repeatability.GetProperty("headlines").EnumerateArray().ToList();

        Assert.Equal(2, repeatability.GetProperty("repetitions").GetInt32());
        // ops: 4 operations; ratio to pipes for 8 bindings (not pipes), overhead share for 8 (not inproc);
        // the three gRPC engine variant columns, the four TLS and four mutual-TLS ones, fast-uds/reflection and the four
        // telemetry ones: ratio to pipes, overhead share and ratio to their binding.
        Assert.Equal(4 * (8 + 8 + (16 * 3)), headlines.Count);
        Assert.All(headlines, h =>
        {
            var values = h.GetProperty("values").EnumerateArray().Select(v => v.GetDouble()).ToList();
            Assert.Equal(2, values.Count);
            var median = h.GetProperty("median").GetDouble();
            var expected = values.Max(v => Math.Abs(v - median)) / Math.Abs(median);
            Assert.Equal(expected, h.GetProperty("maxDeviation").GetDouble(), 9);
        });
        var markdown = File.ReadAllText(Path.Combine(run.Directory, "report.md"));
        Assert.Contains("## repeatability: the 25 headline figures that moved most over 2 repetitions", markdown, StringComparison.Ordinal);
        Assert.Contains("Repeatability", markdown, StringComparison.Ordinal);
        Assert.Contains("[repetition 2/2]", run.Console, StringComparison.Ordinal);
        Assert.Contains("<section id=\"repeatability\">", File.ReadAllText(Path.Combine(run.Directory, "report.html")), StringComparison.Ordinal);
    }

    public sealed class RepeatRun : RunnerRun
    {
        protected override string[] Arguments => ["--quick", "--suite", "ops", "--repeat", "2"];
    }
}
