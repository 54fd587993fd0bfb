using RpcCompare.Bindings;
using RpcCompare.Perf.Hosting;
using RpcCompare.Testing;

namespace RpcCompare.Runner.Tests.Hosting;

public sealed class HostLauncherTests
{
    [Fact]
    public async Task ExitReport_IsNullWhileTheHostRuns_AndNamesTheProcessAndItsExitCodeOnceItHasDied()
    {
        await using var host = await HostLauncher.StartAsync([BindingNames.Pipes], pinToCpu0: false).Bounded();
        Assert.Null(host.ExitReport());

        await host.KillAsync().Bounded();
        var report = host.ExitReport();

        Assert.NotNull(report);
        Assert.Contains($"RpcCompare.Host (process {host.ProcessId}) exited with code ", report, StringComparison.Ordinal);
    }
}
