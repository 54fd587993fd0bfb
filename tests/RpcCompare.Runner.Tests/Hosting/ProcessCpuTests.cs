using System.Diagnostics;
using RpcCompare.Runner.Hosting;

namespace RpcCompare.Runner.Tests.Hosting;

/// <summary>Another process's CPU time, read from /proc as the runner reads the host's per trial.</summary>
public sealed class ProcessCpuTests
{
    [Fact]
    public void UserAndSystemTicks_AreAdded_CountingFieldsAfterTheLastParenthesis()
    {
        // Field 2 (the command) may hold spaces and ')': fields 14 and 15 are counted from its end.
        const string stat = "4242 (a) b (c) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 75 0 0 20 0 9 0 12345 0 0";

        Assert.Equal(TimeSpan.FromSeconds(3.25), ProcessCpu.Parse(stat));
    }

    [Theory]
    [InlineData("")]
    [InlineData("4242 (host) S 1 2 3")]
    [InlineData("4242 (host) S 1 4242 4242 0 -1 4194560 900 0 0 0 x 75 0")]
    public void ALineThatIsNoStatLine_ReadsAsUnknown(string stat) => Assert.Null(ProcessCpu.Parse(stat));

    [Fact]
    public void AProcessThatWorks_ShowsItsCpuTimeGrowing()
    {
        var before = ProcessCpu.Read(Environment.ProcessId);
        var spent = Stopwatch.StartNew();
        while (spent.ElapsedMilliseconds < 100)
        {
            Thread.SpinWait(1_000);
        }

        var after = ProcessCpu.Read(Environment.ProcessId);

        Assert.NotNull(before);
        // 100 ms of spinning is at least a few of /proc's 10 ms ticks, even if the VM stole some.
        Assert.True(after - before >= TimeSpan.FromMilliseconds(30), $"{before} -> {after}");
    }

    [Fact]
    public void AProcessThatIsGone_ReadsAsUnknown()
    {
        using var process = Process.Start(new ProcessStartInfo("true") { UseShellExecute = false })!;
        process.WaitForExit();

        Assert.Null(ProcessCpu.Read(process.Id));
    }
}
