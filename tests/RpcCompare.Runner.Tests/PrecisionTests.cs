using RpcCompare.Bindings;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Tests;

/// <summary>A paired ratio's confidence interval, and the stopping rule that takes more trials until the row's ratios are within it.</summary>
public sealed class PrecisionTests
{
    [Fact]
    public void Interval_IsStudentsTOnTheLogarithms_AroundTheGeometricMean()
    {
        // Logs ln 2 − 0.1, ln 2, ln 2 + 0.1: standard deviation 0.1; t(0.975, 2 df) = 4.3027; half 4.3027 × 0.1 / √3.
        var interval = RatioInterval.Of([2 * Math.Exp(-0.1), 2, 2 * Math.Exp(0.1)])!;

        var half = 4.302653 * 0.1 / Math.Sqrt(3);
        Assert.Equal(2 * Math.Exp(-half), interval.Low, 4);
        Assert.Equal(2 * Math.Exp(half), interval.High, 4);
        Assert.Equal(Math.Exp(half) - 1, interval.HalfWidth, 4);
    }

    [Fact]
    public void Interval_NarrowsWithMoreTrialsOfTheSameSpread_AndReadsTheSameEitherWayRound()
    {
        double[] few = [0.9, 1.1, 1.0];
        double[] many = [0.9, 1.1, 1.0, 0.9, 1.1, 1.0, 0.9, 1.1, 1.0];

        var wide = RatioInterval.Of(few)!;
        var narrow = RatioInterval.Of(many)!;
        var inverse = RatioInterval.Of([.. few.Select(r => 1 / r)])!;

        Assert.True(narrow.HalfWidth < wide.HalfWidth / 2, $"{narrow.HalfWidth} against {wide.HalfWidth}");
        Assert.Equal(1 / wide.High, inverse.Low, 9);
        Assert.Equal(wide.HalfWidth, inverse.HalfWidth, 9);
    }

    [Theory]
    [InlineData(new double[] { 1.5 })]
    [InlineData(new double[] { 1.5, 0 })]
    [InlineData(new double[] { 1.5, double.NaN })]
    public void Interval_NeedsTwoPositiveRatios(double[] ratios) => Assert.Null(RatioInterval.Of(ratios));

    [Fact]
    public void Wide_NamesTheRatiosOverTheTarget_AKnobAgainstItsOwnBinding()
    {
        var rule = new PrecisionRule(0.05, 10);
        double[] pipes = [100, 100, 100, 100, 100];
        double[] steady = [200, 202, 198, 200, 201];
        double[] drifting = [200, 300, 150, 250, 180];
        PrecisionRule.CellTrials[] row =
        [
            new("pipes", BindingNames.Pipes, null, pipes),
            new("grpc-tcp", BindingNames.GrpcTcp, null, steady),
            new("fast-uds", BindingNames.FastUds, null, drifting),
            // Tracks its binding exactly, so its ratio to it is exact although fast-uds's to pipes is not.
            new("fast-uds/spin", BindingNames.FastUds, "spin", [.. drifting.Select(r => r * 1.1)]),
        ];

        var wide = rule.Wide(row);

        var only = Assert.Single(wide);
        Assert.StartsWith("fast-uds ±", only, StringComparison.Ordinal);
        Assert.Empty(new PrecisionRule(0, 10).Wide(row));
        Assert.Empty(rule.Wide([row[0], row[1]]));
    }

    [Fact]
    public void Wide_AsksForMore_UnderTwoTrials_ButNotForATrialWithoutACall()
    {
        var rule = new PrecisionRule(0.05, 10);

        Assert.Equal(["grpc-tcp"], rule.Wide([new("pipes", BindingNames.Pipes, null, [100]), new("grpc-tcp", BindingNames.GrpcTcp, null, [50])]));
        Assert.Empty(rule.Wide([new("pipes", BindingNames.Pipes, null, [100, 100]), new("grpc-tcp", BindingNames.GrpcTcp, null, [50, 0])]));
    }

    [Fact]
    public void Wide_WithoutAReference_AsksForNothing()
    {
        // A row without pipes (--bindings, a team's contracts): no headline ratio to make precise.
        var rule = new PrecisionRule(0.05, 10);

        Assert.Empty(rule.Wide([new("grpc-tcp", BindingNames.GrpcTcp, null, [1, 50, 900]), new("wcf-http", BindingNames.WcfHttp, null, [5, 500, 9])]));
    }

    [Theory]
    [InlineData(false, 5, null, 5)]
    [InlineData(false, 5, 10, 10)]
    [InlineData(true, 2, null, 2)]
    [InlineData(true, 2, 4, 4)]
    [InlineData(false, 3, 3, 3)]
    public void MostTrials_IsTheMinimum_UnlessMaxTrialsRaisesIt(bool quick, int trials, int? maxTrials, int most)
    {
        var options = new RunnerOptions(["ops"], null, quick, trials, TimeSpan.Zero, TimeSpan.FromSeconds(1), 1, Perf.Hosting.CpuPlacement.None, null, "results", MaxTrials: maxTrials);

        Assert.Equal(most, options.MostTrials);
        Assert.Equal(most > trials, options.PrecisionRule is not null);
        Assert.Null((options with { Precision = 0 }).PrecisionRule);
    }
}
