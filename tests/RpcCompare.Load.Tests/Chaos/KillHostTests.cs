using RpcCompare.Load.Chaos;

namespace RpcCompare.Load.Tests.Chaos;

/// <summary>
/// --chaos kill-host in short form over every network binding: the host is killed with SIGKILL
/// under load and restarted; every binding serves again, errors are reported, no call hangs past
/// the timeout, and the file holds every write a client saw acknowledged.
/// </summary>
[Collection(NBomberSessions.Name)]
public sealed class KillHostTests : IClassFixture<KillHostTests.KillHostRun>
{
    private static readonly string[] s_bindings = ["wcf-nettcp", "wcf-uds", "wcf-http", "grpc-tcp", "grpc-uds", "fast-tcp", "fast-uds", "pipes"];
    private readonly KillHostRun _run;

    public KillHostTests(KillHostRun run)
    {
        _run = run;
    }

    private ChaosResult Chaos => _run.Report?.Chaos ?? throw new InvalidOperationException($"No chaos result. Output:\n{_run.Console}");

    [Fact]
    public void TheHostWasKilled_AndCameBackOnTheSameAddresses()
    {
        Assert.True(_run.ExitCode == 0, _run.Console);
        Assert.True(Chaos.KilledAtSeconds > 0, _run.Console);
        Assert.True(Chaos.RestartSeconds > 0, _run.Console);
        Assert.True(Chaos.SameAddresses);
        Assert.Equal(ChaosTarget.Host, Chaos.Target);
        Assert.Null(Chaos.Push);
        Assert.Equal(s_bindings, Chaos.Bindings.Select(b => b.Binding));
    }

    [Theory]
    [MemberData(nameof(Bindings))]
    public void EveryAcknowledgedWrite_IsInTheFile(string binding)
    {
        var writes = Chaos.Bindings.Single(b => b.Binding == binding).Writes;

        Assert.True(writes.Acknowledged > 0, $"{binding}: no write acknowledged");
        Assert.Equal(0, writes.Lost);
        Assert.Equal(writes.Acknowledged, writes.Verified);
        Assert.InRange(writes.Acknowledged + writes.WrittenUnacknowledged, 0, writes.Attempted);
    }

    [Theory]
    [MemberData(nameof(Bindings))]
    public void EveryBinding_ServesAgain_WithNoCallPastTheTimeout(string binding)
    {
        var result = Chaos.Bindings.Single(b => b.Binding == binding);
        // Everything the run saw, so a failure on a busy CI machine says which condition broke.
        var seen = $"{binding}: {result} (killed at {Chaos.KilledAtSeconds:0.00} s, host back after {Chaos.RestartSeconds:0.00} s)";

        Assert.True(result.Problems.Count == 0, seen);
        Assert.True(result.RecoverySeconds > 0, seen);
        Assert.True(result.LongestCallMs <= (ChaosSettings.Quick.ConnectTimeout + ChaosSettings.HangMargin).TotalMilliseconds, seen);
        Assert.True(result.Failed == result.Errors.Sum(e => e.Count), seen);
    }

    [Fact]
    public void Dashboard_ShowsEachBindingsRecovery_ReadBackFromTheReport()
    {
        var recovery = _run.DashboardEntry.Figures["recovery"];

        Assert.Equal(s_bindings, recovery.Keys);
        Assert.All(Chaos.Bindings, b => Assert.Equal(b.RecoverySeconds, recovery[b.Binding].Value));
    }

    [Fact]
    public void Report_HasTheKillTable()
    {
        var markdown = File.ReadAllText(Path.Combine(_run.Directory, "report.md"));

        Assert.Contains("## kill -9 of the host at ", markdown, StringComparison.Ordinal);
        Assert.Contains("| binding | verdict | calls ok | failed | serving again after | longest call | writes acknowledged | in the file | lost |", markdown, StringComparison.Ordinal);
        Assert.All(s_bindings, b => Assert.Contains($"| {b} | passed |", markdown, StringComparison.Ordinal));
    }

    [Fact]
    public async Task WithAHostItDidNotStart_IsAUsageError()
    {
        var (exitCode, console) = await LoadCommandRun.InvokeAsync(["--chaos", "kill-host", "--host", "/run/rpccompare/endpoints.json"]);

        Assert.Equal(2, exitCode);
        Assert.Contains("needs the host the load command starts (not --host)", console, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("--host", "/run/rpccompare/endpoints.json", "--kill-command", "true")]
    [InlineData("--host", "/run/rpccompare/endpoints.json", "--data-root", "/tmp")]
    [InlineData("--kill-command", "true", "--data-root", "/tmp")]
    public async Task KillReplica_WithoutItsBalancerCommandOrDataRoot_IsAUsageError(params string[] given)
    {
        var (exitCode, console) = await LoadCommandRun.InvokeAsync(["--chaos", "kill-replica", .. given]);

        Assert.Equal(2, exitCode);
        Assert.Contains("--chaos kill-replica needs --host (the balancer's endpoints file), --kill-command (what kills one replica) and --data-root", console, StringComparison.Ordinal);
    }

    [Fact]
    public async Task KillHost_WithAKillCommand_IsAUsageError()
    {
        var (exitCode, console) = await LoadCommandRun.InvokeAsync(["--chaos", "kill-host", "--kill-command", "true"]);

        Assert.Equal(2, exitCode);
        Assert.Contains("--kill-command and --data-root belong to --chaos kill-replica.", console, StringComparison.Ordinal);
    }

    public static TheoryData<string> Bindings() => [.. s_bindings];

    public sealed class KillHostRun : LoadCommandRun
    {
        protected override string[] Arguments => ["--chaos", "kill-host", "--quick"];
    }
}
