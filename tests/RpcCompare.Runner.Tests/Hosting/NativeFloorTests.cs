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
    [InlineData(NativeFloor.TcpBlockingLabel, CpuPlacement.None)]
    [InlineData(NativeFloor.TcpBlockingLabel, CpuPlacement.SeparateCores)]
    [InlineData(NativeFloor.TcpBlockingLabel, CpuPlacement.SameCore)]
    [InlineData(NativeFloor.TcpSpinningLabel, CpuPlacement.None)]
    [InlineData(NativeFloor.TcpSpinningLabel, CpuPlacement.SameCore)]
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
    [InlineData(NativeFloor.TcpBlockingLabel, CpuPlacement.None, "12 250 tcp")]
    [InlineData(NativeFloor.TcpSpinningLabel, CpuPlacement.SameCore, "12 250 pin spin tcp")]
    public void TheFloor_IsPlacedAsTheRunnerAndHostAre(string label, CpuPlacement placement, string arguments) =>
        Assert.Equal(arguments, string.Join(' ', NativeFloor.Arguments(label, 12, TimeSpan.FromMilliseconds(250), placement)));

    [Fact]
    public void AnUnknownFloor_IsRefused() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => NativeFloor.Arguments("native-quic", 12, TimeSpan.FromMilliseconds(250), CpuPlacement.None));

    [Theory]
    [InlineData("wcf-nettcp", true)]
    [InlineData("wcf-http", true)]
    [InlineData("grpc-tcp", true)]
    [InlineData("fast-tcp", true)]
    [InlineData("wcf-uds", false)]
    [InlineData("grpc-uds", false)]
    [InlineData("fast-uds", false)]
    [InlineData("pipes", false)]
    [InlineData("inproc", false)]
    public void ABinding_IsComparedWithTheFloorOfItsSocket(string binding, bool overTcp) =>
        Assert.Equal(overTcp ? NativeFloor.SocketKind.Tcp : NativeFloor.SocketKind.Unix, NativeFloor.KindOfBinding(binding));

    [Fact]
    public void OnlyTheFloorsOfTheMeasuredBindingsRun()
    {
        Assert.Equal([NativeFloor.BlockingLabel, NativeFloor.SpinningLabel], NativeFloor.LabelsFor(["pipes", "fast-uds"]));
        Assert.Equal([NativeFloor.TcpBlockingLabel, NativeFloor.TcpSpinningLabel], NativeFloor.LabelsFor(["fast-tcp"]));
        Assert.Equal(NativeFloor.Labels, NativeFloor.LabelsFor(["fast-tcp", "fast-uds"]));
        Assert.Empty(NativeFloor.LabelsFor([]));
    }
}
