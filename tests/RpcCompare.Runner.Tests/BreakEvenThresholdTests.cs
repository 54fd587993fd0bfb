using RpcCompare.Runner.Reporting;

namespace RpcCompare.Runner.Tests;

public sealed class BreakEvenThresholdTests
{
    private static readonly List<BreakEvenPoint> s_points = [new(1, 1, 0.5), new(10, 10, 0.05), new(100, 100, 0.005)];

    [Fact]
    public void Threshold_BetweenTwoPoints_IsInterpolatedOnALogScale()
    {
        // 10% lies 8/9 of the way from 50% to 5%, so the work is 10^(8/9) µs.
        var threshold = ReportBuilder.Threshold(s_points, 0.10);

        Assert.Equal(Math.Pow(10, 8.0 / 9), threshold.WorkMicroseconds!.Value, 6);
    }

    [Fact]
    public void Threshold_NeverReached_HasNoWorkAndSaysSo()
    {
        var threshold = ReportBuilder.Threshold(s_points, 0.001);

        Assert.Null(threshold.WorkMicroseconds);
        Assert.StartsWith("not reached", threshold.Note, StringComparison.Ordinal);
    }

    [Fact]
    public void Threshold_BelowAtTheFirstPoint_ReportsTheFirstPoint()
    {
        var threshold = ReportBuilder.Threshold(s_points, 0.9);

        Assert.Equal(1, threshold.WorkMicroseconds);
        Assert.StartsWith("already below", threshold.Note, StringComparison.Ordinal);
    }
}
