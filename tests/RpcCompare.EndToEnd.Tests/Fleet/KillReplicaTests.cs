using System.Globalization;
using RpcCompare.Load;
using RpcCompare.Load.Chaos;
using RpcCompare.Load.Reporting;
using RpcCompare.Testing;
using Xunit.Abstractions;

namespace RpcCompare.EndToEnd.Tests.Fleet;

/// <summary>
/// The load command's --chaos kill-replica against the local fleet: one replica killed with SIGKILL
/// while every binding writes through HAProxy and subscribers on every replica follow a topic.
/// </summary>
public sealed class KillReplicaTests(ITestOutputHelper output)
{
    [Fact]
    public async Task AReplicaKilledUnderLoad_LosesNoAcknowledgedWrite_AndItsSubscribersResumeElsewhereWithoutLoss()
    {
        await using var fleet = await LocalFleet.StartAsync();
        var doomed = fleet.Replicas[0];
        using var results = new TemporaryDirectory();
        using var console = new StringWriter();
        LoadReport? report = null;

        // Cancelled, not just abandoned, past its bound: a run left going would outlive the fleet.
        using var bound = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        var exitCode = await LoadCommand.Create(PlainConsole.Into(console), r => report = r).Parse(
        [
            "--chaos", "kill-replica", "--quick", "--host", fleet.BalancerEndpointsFile,
            "--kill-command", $"kill -9 {doomed.Host.Id.ToString(CultureInfo.InvariantCulture)}", "--data-root", fleet.DataRoot, "--output", results.FullPath,
        ]).InvokeAsync(cancellationToken: bound.Token);

        var markdown = Directory.GetFiles(results.FullPath, "report.md", SearchOption.AllDirectories).Select(File.ReadAllText).SingleOrDefault();
        var seen = $"{console}\n{markdown}\n{fleet.Output}";
        output.WriteLine(markdown);
        output.WriteLine(console.ToString());
        var chaos = report?.Chaos ?? throw new InvalidOperationException($"No chaos result.\n{seen}");
        Assert.True(exitCode == 0, seen);
        Assert.Equal(ChaosTarget.Replica, chaos.Target);
        Assert.Null(chaos.RestartSeconds);
        await doomed.Host.WaitForExitAsync().Bounded(); // Killed by the command, not restarted.

        Assert.Equal(LocalFleet.Balanced.Keys.Order(), chaos.Bindings.Select(b => b.Binding).Order());
        Assert.All(chaos.Bindings, b =>
        {
            Assert.True(b.Problems.Count == 0, $"{b.Binding}: {b}");
            Assert.True(b.Writes.Acknowledged > 0 && b.Writes.Lost == 0 && b.Writes.Verified == b.Writes.Acknowledged, $"{b.Binding}: {b}");
            Assert.True(b.RecoverySeconds >= 0, $"{b.Binding}: {b}");
        });

        var push = chaos.Push ?? throw new InvalidOperationException($"No push result.\n{seen}");
        Assert.True(push.HighestAcknowledged > 0, seen);
        Assert.Equal(LocalFleet.Balanced.Count * ChaosSettings.DefaultSubscribersPerBinding, push.Subscribers.Count);
        Assert.All(push.Subscribers, s =>
        {
            Assert.True(s.Problems.Count == 0, $"{s.Binding} #{s.Index}: {string.Join("; ", s.Problems)}");
            Assert.True(s.Received + s.GoneAtResume >= push.HighestAcknowledged, $"{s.Binding} #{s.Index}: {s.Received} of {push.HighestAcknowledged}");
        });

        // Subscribers are spread over the three replicas, so the killed one had some: they resumed through the balancer.
        var resumed = push.Subscribers.Where(s => s.Interruptions.Count > 0).ToList();
        Assert.True(resumed.Count > 0, seen);
        Assert.All(resumed, s => Assert.All(s.Interruptions, i => Assert.True(i.ResumedSeconds >= i.EndedSeconds, seen)));
    }
}
