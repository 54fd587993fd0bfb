using RpcCompare.Load.Capacity;
using RpcCompare.Load.Reporting;

namespace RpcCompare.Load.Tests.Capacity;

/// <summary>The search against a binding whose true capacity is known (a fake probe): the steps it takes and the figure it settles on.</summary>
public sealed class CapacitySearchTests
{
    private static readonly CapacitySettings s_settings = new(10, TimeSpan.FromSeconds(1), 1_000, 256_000, 0.10);

    [Theory]
    [InlineData(22_500)]
    [InlineData(1_000)]
    [InlineData(5_000)]
    [InlineData(131_071)]
    public async Task FindsARateThatHolds_WithinThePrecision_BelowTheFirstThatBroke(int trueCapacity)
    {
        var (capacity, steps) = await CapacitySearch.RunAsync(s_settings, rate => Probe(rate, trueCapacity));

        Assert.NotNull(capacity);
        Assert.InRange(capacity.Value, trueCapacity / (1 + s_settings.Precision), trueCapacity);
        Assert.Contains(steps, s => s.Held && s.Rate == capacity);
        Assert.Contains(steps, s => !s.Held && s.Rate <= capacity * (1 + s_settings.Precision) + 1);
        Assert.All(steps, s => Assert.Equal(s.Rate <= trueCapacity, s.Held));
    }

    [Fact]
    public async Task DoublesFromTheStart_ThenBisects()
    {
        var (_, steps) = await CapacitySearch.RunAsync(s_settings, rate => Probe(rate, 10_000));

        Assert.Equal([1_000, 2_000, 4_000, 8_000, 16_000, 12_000, 10_000, 11_000], steps.Select(s => s.Rate));
    }

    [Fact]
    public async Task WhenTheStartDoesNotHold_HalvesDownUntilOneDoes()
    {
        var (capacity, steps) = await CapacitySearch.RunAsync(s_settings, rate => Probe(rate, 300));

        Assert.Equal([1_000, 500, 250], steps.Select(s => s.Rate).Take(3));
        Assert.InRange(capacity!.Value, 273, 300);
    }

    [Fact]
    public async Task WhenNothingHolds_TheCapacityIsNone_AndTheSearchStopsAtTheLowestRate()
    {
        var (capacity, steps) = await CapacitySearch.RunAsync(s_settings, rate => Probe(rate, 0));

        Assert.Null(capacity);
        Assert.True(steps[^1].Rate >= CapacitySettings.MinRate);
        Assert.True(steps[^1].Rate / 2 < CapacitySettings.MinRate);
    }

    [Fact]
    public async Task StillHoldingAtTheCeiling_StopsThere()
    {
        var settings = s_settings with { MaxRate = 6_000 };

        var (capacity, steps) = await CapacitySearch.RunAsync(settings, rate => Probe(rate, 1_000_000));

        Assert.Equal(6_000, capacity);
        Assert.Equal([1_000, 2_000, 4_000, 6_000], steps.Select(s => s.Rate));
    }

    [Theory]
    [InlineData(0, 9.9, 1_000, "held")]
    [InlineData(3, 1.0, 1_000, "3 calls failed")]
    [InlineData(0, 10.5, 1_000, "p99 10.5 ms over the 10 ms budget")]
    [InlineData(0, 1.0, 900, "only 900 of 1,000 calls completed in the step")]
    public void Judge_NamesTheFirstConditionBroken(long failed, double p99, long ok, string verdict)
    {
        var step = CapacityStep.Judge(1_000, TimeSpan.FromSeconds(1), ok, failed, ok, Latency(p99), 0, 1, 10);

        Assert.Equal(verdict, step.Verdict);
        Assert.Equal(verdict == "held", step.Held);
    }

    private static Task<CapacityStep> Probe(int rate, int trueCapacity) =>
        Task.FromResult(CapacityStep.Judge(rate, TimeSpan.FromSeconds(1), rate, 0, rate, Latency(rate <= trueCapacity ? 2 : 50), 0, 1, 10));

    private static LatencyFigures Latency(double p99) => new(p99 / 2, p99 / 2, p99 / 2, p99, p99, p99);
}
