using RpcCompare.Bindings;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;
using RpcCompare.Runner.Reporting;

namespace RpcCompare.Runner.Tests;

/// <summary>Ratios from side-by-side trials, noise marks, repetitions and the interleaving order.</summary>
public sealed class PairedFiguresTests
{
    [Fact]
    public void RatioToPipes_PairsTrialTWithTrialT_NotMedianWithMedian()
    {
        // Both drift together: trial by trial the binding runs at exactly half the pipe's rate,
        // although their medians (200 and 500) would say 0.4.
        var pipes = Cell(BindingNames.Pipes, 100, 500, 1000);
        var grpc = Cell(BindingNames.GrpcTcp, 50, 250, 500);
        var pipesRecord = Record(pipes, [pipes, grpc]);

        var record = Record(grpc, [pipes, grpc]);

        AssertRatio(new Spread(0.5, 0.5, 0.5), record.RatioToPipesSpread);
        Assert.Equal(0.5, record.RatioToPipes);
        Assert.Equal(new Spread(100, 100, 100), record.PipesFasterPercent);
        AssertRatio(new Spread(1, 1, 1), pipesRecord.RatioToPipesSpread);
    }

    [Fact]
    public void OverheadShare_IsPairedWithInprocTrialByTrial()
    {
        var inproc = Cell(BindingNames.InProc, 1000, 2000, 4000);
        var wcf = Cell(BindingNames.WcfNetTcp, 100, 1000, 400);

        var record = Record(wcf, [inproc, wcf]);

        // 1 − rate(binding)/rate(inproc) per trial: 0.9, 0.5, 0.9.
        Assert.Equal(0.9, record.OverheadShareSpread!.Median, 9);
        Assert.Equal(0.5, record.OverheadShareSpread.Min, 9);
        Assert.Equal(0.9, record.OverheadShare!.Value, 9);
    }

    [Theory]
    [InlineData(new double[] { 1000, 1050, 1040 }, 0.10, false)]
    [InlineData(new double[] { 1000, 1200, 1040 }, 0.10, true)]
    [InlineData(new double[] { 1000, 1200, 1040 }, 0.25, false)]
    public void Noisy_WhenTrialsSpanMoreThanTheThreshold(double[] rates, double threshold, bool noisy)
    {
        var cell = Cell(BindingNames.Pipes, rates);

        var record = Assert.Single(ReportBuilder.Measurements([cell], new Dictionary<(string, int), List<double>>(), threshold));

        Assert.Equal(noisy, record.Noisy);
        Assert.Equal((rates.Max() - rates.Min()) / 1040, record.TrialSpread, 9);
    }

    [Fact]
    public void Noisy_WhenSteadyTrialsGiveUnsteadyRatios()
    {
        // Each cell alone is within 10%, but they moved in opposite directions trial by trial.
        var pipes = Cell(BindingNames.Pipes, 1000, 1060, 1000);
        var grpc = Cell(BindingNames.GrpcTcp, 500, 470, 500);

        Assert.True(Record(grpc, [pipes, grpc]).Noisy);
        Assert.False(Record(pipes, [pipes, grpc]).Noisy);
    }

    [Fact]
    public void Repeatability_ReportsEachHeadlineInEveryRepetition_AndItsLargestDeviation()
    {
        var first = new Repetition(1, [Cell(BindingNames.Pipes, 1000), Cell(BindingNames.GrpcTcp, 500), Cell(BindingNames.InProc, 2000)], []);
        var second = new Repetition(2, [Cell(BindingNames.Pipes, 1000), Cell(BindingNames.GrpcTcp, 550), Cell(BindingNames.InProc, 2000)], []);
        var third = new Repetition(3, [Cell(BindingNames.Pipes, 1000), Cell(BindingNames.GrpcTcp, 500), Cell(BindingNames.InProc, 2000)], []);

        var repeatability = ReportBuilder.Repeatability([first, second, third], 0.10)!;

        var ratio = Assert.Single(repeatability.Headlines, h => h.Binding == BindingNames.GrpcTcp && h.Metric == "ratio to pipes");
        Assert.Equal([0.5, 0.55, 0.5], ratio.Values);
        Assert.Equal(0.1, ratio.MaxDeviation, 9);
        // No ratio of pipes to itself, no share of inproc against itself.
        Assert.DoesNotContain(repeatability.Headlines, h => h.Binding == BindingNames.Pipes && h.Metric == "ratio to pipes");
        Assert.DoesNotContain(repeatability.Headlines, h => h.Binding == BindingNames.InProc && h.Metric == "overhead share");
        Assert.Equal(0.1, repeatability.WorstDeviation, 9);
        Assert.Null(ReportBuilder.Repeatability([first], 0.10));
    }

    [Fact]
    public void Pool_ConcatenatesEachCellsTrialsInRepetitionOrder()
    {
        var workload = Workload(BindingNames.Pipes);
        var first = new Repetition(1, [new CellResult(workload, 1, [Trial(1000), Trial(1100)])], new() { [(NativeFloor.BlockingLabel, 12)] = [9, 11] });
        var second = new Repetition(2, [new CellResult(workload, 1, [Trial(1200), Trial(1300)])], new() { [(NativeFloor.BlockingLabel, 12)] = [8, 21] });

        var pooled = Repetition.Pool([first, second]);

        Assert.Equal([1000, 1100, 1200, 1300], Assert.Single(pooled.Cells).Trials.Select(t => t.CallsPerSecond));
        Assert.Equal([9, 11, 8, 21], pooled.Native[(NativeFloor.BlockingLabel, 12)]);
    }

    [Fact]
    public void TrialOrder_PutsEveryCellInEveryPositionOnceOverAsManyTrials()
    {
        const int cells = 7;
        var orders = Enumerable.Range(1, cells).Select(t => TrialOrder.For(t, cells).ToList()).ToList();

        Assert.All(orders, order => Assert.Equal(Enumerable.Range(0, cells), order.Order()));
        for (var position = 0; position < cells; position++)
        {
            Assert.Equal(Enumerable.Range(0, cells), orders.Select(o => o[position]).Order());
        }
    }

    [Fact]
    public void RatioToNative_PairsEachTrialWithTheFloorsTrialThatTookTurnsWithIt()
    {
        var workload = PipesEchoAt12Bytes();
        var pipes = new CellResult(workload, 1, [Trial(100), Trial(300), Trial(200)]);
        var native = new Dictionary<(string, int), List<double>> { [(NativeFloor.BlockingLabel, 12)] = [50, 600, 100] };

        var records = ReportBuilder.Measurements([pipes], native, 0.10);

        // Per trial 2.0, 0.5, 2.0; medians alone (200 / 100) would say 2.0 with no spread.
        AssertRatio(new Spread(2, 0.5, 2), records.Single(r => r.Binding == BindingNames.Pipes).RatioToNativeSpread);
        var floor = records.Single(r => r.Binding == NativeFloor.BlockingLabel);
        Assert.Equal(new Spread(100, 50, 600), floor.CallsPerSecond);
        Assert.Equal(3, floor.Trials);
        Assert.Null(floor.RatioToNativeSpread);
    }

    [Fact]
    public void RatioToNative_IsToTheFasterFloorAtEachSize_AndTheSlowerFloorGetsItsRatioToIt()
    {
        var at12 = PipesEchoAt12Bytes();
        var at248k = at12 with { Size = 248_832, PayloadBytes = 2 * 248_832 };
        var native = new Dictionary<(string, int), List<double>>
        {
            // Spinning wins at 12 B, blocking at 248,832 B: the floor is chosen per size.
            [(NativeFloor.BlockingLabel, 12)] = [100, 100],
            [(NativeFloor.SpinningLabel, 12)] = [400, 500],
            [(NativeFloor.BlockingLabel, 248_832)] = [40, 50],
            [(NativeFloor.SpinningLabel, 248_832)] = [20, 20],
        };

        var records = ReportBuilder.Measurements(
            [new CellResult(at12, 1, [Trial(200), Trial(250)]), new CellResult(at248k, 1, [Trial(10), Trial(20)])], native, 0.10);

        AssertRatio(new Spread(0.5, 0.5, 0.5), records.Single(r => r.Binding == BindingNames.Pipes && r.Size == 12).RatioToNativeSpread);
        AssertRatio(new Spread(0.325, 0.25, 0.4), records.Single(r => r.Binding == BindingNames.Pipes && r.Size == 248_832).RatioToNativeSpread);
        AssertRatio(new Spread(0.225, 0.2, 0.25), records.Single(r => r.Binding == NativeFloor.BlockingLabel && r.Size == 12).RatioToNativeSpread);
        Assert.Null(records.Single(r => r.Binding == NativeFloor.SpinningLabel && r.Size == 12).RatioToNativeSpread);
        Assert.Null(records.Single(r => r.Binding == NativeFloor.BlockingLabel && r.Size == 248_832).RatioToNativeSpread);
        AssertRatio(new Spread(0.45, 0.4, 0.5), records.Single(r => r.Binding == NativeFloor.SpinningLabel && r.Size == 248_832).RatioToNativeSpread);
    }

    [Fact]
    public void RatioToNative_OfATcpBinding_IsToTheTcpFloor_AndEachSocketsFloorsAreRankedApart()
    {
        var pipes = PipesEchoAt12Bytes();
        var fastTcp = pipes with { Target = new BindingTarget("fast-tcp/spin", BindingNames.FastTcp, "", "", Variant: "spin") };
        var native = new Dictionary<(string, int), List<double>>
        {
            // The Unix socket's spinning floor is the fastest of all four; TCP's fastest is its blocking one.
            [(NativeFloor.BlockingLabel, 12)] = [100, 100],
            [(NativeFloor.SpinningLabel, 12)] = [400, 400],
            [(NativeFloor.TcpBlockingLabel, 12)] = [80, 100],
            [(NativeFloor.TcpSpinningLabel, 12)] = [40, 50],
        };

        var records = ReportBuilder.Measurements(
            [new CellResult(pipes, 1, [Trial(200), Trial(200)]), new CellResult(fastTcp, 1, [Trial(40), Trial(80)])], native, 0.10);

        AssertRatio(new Spread(0.5, 0.5, 0.5), records.Single(r => r.Binding == BindingNames.Pipes).RatioToNativeSpread);
        AssertRatio(new Spread(0.65, 0.5, 0.8), records.Single(r => r.Binding == "fast-tcp/spin").RatioToNativeSpread);
        Assert.Null(records.Single(r => r.Binding == NativeFloor.TcpBlockingLabel).RatioToNativeSpread);
        AssertRatio(new Spread(0.5, 0.5, 0.5), records.Single(r => r.Binding == NativeFloor.TcpSpinningLabel).RatioToNativeSpread);
        AssertRatio(new Spread(0.25, 0.25, 0.25), records.Single(r => r.Binding == NativeFloor.BlockingLabel).RatioToNativeSpread);
        Assert.Null(records.Single(r => r.Binding == NativeFloor.SpinningLabel).RatioToNativeSpread);
    }

    [Fact]
    public void TheFloorNote_NamesOnlyTheSocketsWhoseFloorsRan()
    {
        var unix = new Dictionary<(string, int), List<double>> { [(NativeFloor.BlockingLabel, 12)] = [1], [(NativeFloor.SpinningLabel, 12)] = [2] };
        var tcp = new Dictionary<(string, int), List<double>> { [(NativeFloor.TcpBlockingLabel, 12)] = [1], [(NativeFloor.TcpSpinningLabel, 12)] = [2] };
        var both = unix.Concat(tcp).ToDictionary();

        var unixOnly = ReportTables.FloorNote(ReportBuilder.Measurements([], unix, 0.10));
        var tcpOnly = ReportTables.FloorNote(ReportBuilder.Measurements([], tcp, 0.10));
        var all = ReportTables.FloorNote(ReportBuilder.Measurements([], both, 0.10));

        Assert.Contains(NativeFloor.SpinningLabel, unixOnly, StringComparison.Ordinal);
        Assert.DoesNotContain(NativeFloor.TcpBlockingLabel, unixOnly, StringComparison.Ordinal);
        Assert.Contains(NativeFloor.TcpSpinningLabel, tcpOnly, StringComparison.Ordinal);
        Assert.DoesNotContain("native-uds", tcpOnly, StringComparison.Ordinal);
        Assert.Contains(NativeFloor.SpinningLabel, all, StringComparison.Ordinal);
        Assert.Contains(NativeFloor.TcpSpinningLabel, all, StringComparison.Ordinal);
    }

    [Fact]
    public void RatioToBinding_PairsAKnobsColumnWithItsBindingTrialByTrial_AndOnlyForTheKnob()
    {
        var product = Cell(BindingNames.WcfNetTcp, 1000, 2000, 1500);
        var variantTarget = new BindingTarget("wcf-nettcp/per-session", BindingNames.WcfNetTcp, "", "", Variant: "per-session");
        var variant = new CellResult(Workload(BindingNames.WcfNetTcp) with { Target = variantTarget }, 1, [Trial(900), Trial(1000), Trial(1500)]);

        var records = ReportBuilder.Measurements([product, variant], new Dictionary<(string, int), List<double>>(), 0.10);

        var knob = records.Single(r => r.Binding == "wcf-nettcp/per-session");
        Assert.Equal("per-session", knob.Variant);
        AssertRatio(new Spread(0.9, 0.5, 1), knob.RatioToBindingSpread);
        Assert.True(knob.Noisy, "ratios from 0.5 to 1 are far beyond a 10% threshold");
        Assert.Null(records.Single(r => r.Binding == BindingNames.WcfNetTcp).RatioToBindingSpread);
    }

    private static MeasurementRecord Record(CellResult cell, IReadOnlyList<CellResult> row) =>
        ReportBuilder.Measurements(row, new Dictionary<(string, int), List<double>>(), 0.10).Single(r => r.Binding == cell.Workload.Target.Label);

    private static CellResult Cell(string binding, params double[] rates) =>
        new(Workload(binding), 1, [.. rates.Select(Trial)]);

    private static TrialResult Trial(double rate) => new((long)rate, 1.0, 0, []);

    // One workload per binding for the same cell of the table.
    private static Workload Workload(string binding) =>
        new("ops", "Ping", new BindingTarget(binding, binding, "", ""), null, 0, _ => () => Task.CompletedTask);

    /// <summary>The ping-pong row of 12-byte echoes, pipes' cell of it (the row other bindings' cells are copies of).</summary>
    private static Workload PipesEchoAt12Bytes() =>
        new("pingpong", "echo", new BindingTarget(BindingNames.Pipes, BindingNames.Pipes, "", ""), 12, 24, _ => () => Task.CompletedTask);

    // A paired ratio's median, min and max, and an interval around its geometric mean (PrecisionTests checks the interval's own figures).
    private static void AssertRatio(Spread expected, Spread? actual)
    {
        Assert.NotNull(actual);
        Assert.Equal(expected, actual with { Interval = null });
        Assert.NotNull(actual.Interval);
        Assert.InRange(Math.Sqrt(actual.Interval.Low * actual.Interval.High), actual.Min - 1e-12, actual.Max + 1e-12);
    }
}
