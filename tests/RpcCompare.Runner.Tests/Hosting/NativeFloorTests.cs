using RpcCompare.Perf.Hosting;
using RpcCompare.Runner.Hosting;

namespace RpcCompare.Runner.Tests.Hosting;

public sealed class NativeFloorTests
{
    [Theory]
    [InlineData(NativeFloor.BlockingLabel, CpuPlacement.None)]
    [InlineData(NativeFloor.BlockingLabel, CpuPlacement.SeparateCores)]
    [InlineData(NativeFloor.BlockingLabel, CpuPlacement.SameCore)]
    [InlineData(NativeFloor.SpinningLabel, CpuPlacement.SeparateCores)]
    public void EveryFloor_RunsUnderEveryPlacement(string label, CpuPlacement placement)
    {
        using var floor = NativeFloor.Build();
        Assert.True(floor.IsAvailable, floor.Description);

        var rate = floor.MeasureTrial(label, 12, TimeSpan.FromMilliseconds(100), placement);

        Assert.True(rate > 100, $"{rate} round trips/s");
    }
}
