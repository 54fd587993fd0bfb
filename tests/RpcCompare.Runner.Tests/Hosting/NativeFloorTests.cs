using RpcCompare.Perf.Hosting;
using RpcCompare.Runner.Hosting;

namespace RpcCompare.Runner.Tests.Hosting;

public sealed class NativeFloorTests
{
    [Theory]
    [InlineData(NativeFloor.BlockingLabel, CpuPlacement.None)]
    [InlineData(NativeFloor.BlockingLabel, CpuPlacement.SeparateCores)]
    [InlineData(NativeFloor.BlockingLabel, CpuPlacement.SameCore)]
    [InlineData(NativeFloor.SpinningLabel, CpuPlacement.None)]
    [InlineData(NativeFloor.SpinningLabel, CpuPlacement.SeparateCores)]
    [InlineData(NativeFloor.SpinningLabel, CpuPlacement.SameCore)]
    public void EveryFloor_RunsUnderEveryPlacement(string label, CpuPlacement placement)
    {
        using var floor = NativeFloor.Build();
        Assert.True(floor.IsAvailable, floor.Description);

        var rate = floor.MeasureTrial(label, 12, TimeSpan.FromMilliseconds(100), placement);

        Assert.True(rate > 100, $"{rate} round trips/s");
    }

    [Theory]
    [InlineData(NativeFloor.BlockingLabel, CpuPlacement.None, "12 250")]
    [InlineData(NativeFloor.BlockingLabel, CpuPlacement.SeparateCores, "12 250 split")]
    [InlineData(NativeFloor.BlockingLabel, CpuPlacement.SameCore, "12 250 pin")]
    [InlineData(NativeFloor.SpinningLabel, CpuPlacement.SeparateCores, "12 250 split spin")]
    public void TheFloor_IsPlacedAsTheRunnerAndHostAre(string label, CpuPlacement placement, string arguments) =>
        Assert.Equal(arguments, string.Join(' ', NativeFloor.Arguments(label, 12, TimeSpan.FromMilliseconds(250), placement)));
}
