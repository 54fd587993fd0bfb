using RpcCompare.Bindings;
using RpcCompare.Perf.Hosting;
using RpcCompare.Testing;

namespace RpcCompare.Runner.Tests.Hosting;

public sealed class HostLauncherTests
{
    [Fact]
    public async Task ExitReport_IsNullWhileTheHostRuns_AndNamesTheProcessAndItsExitCodeOnceItHasDied()
    {
        await using var host = await HostLauncher.StartAsync([BindingNames.Pipes], CpuPlacement.None).Bounded();
        Assert.Null(host.ExitReport());

        await host.KillAsync().Bounded();
        var report = host.ExitReport();

        Assert.NotNull(report);
        Assert.Contains($"RpcCompare.Host (process {host.ProcessId}) exited with code ", report, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(CpuPlacement.SeparateCores, "1")]
    [InlineData(CpuPlacement.SameCore, "0")]
    public async Task APinnedHost_RunsEveryThreadOnItsCpu(CpuPlacement placement, string cpus)
    {
        await using var host = await HostLauncher.StartAsync([BindingNames.Pipes], placement).Bounded();

        // Every thread, including those the runtime started before taskset reached the process.
        var threads = Directory.GetDirectories($"/proc/{host.ProcessId}/task");
        Assert.True(threads.Length > 1, $"{threads.Length} thread(s)");
        Assert.All(threads, task => Assert.Contains($"Cpus_allowed_list:\t{cpus}\n", File.ReadAllText(Path.Combine(task, "status")), StringComparison.Ordinal));
    }
}
