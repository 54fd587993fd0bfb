using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Push;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;
using Xunit.Abstractions;

namespace RpcCompare.EndToEnd.Tests.Fleet;

/// <summary>
/// Three replicas behind HAProxy with push through Redis (<see cref="LocalFleet"/>): what a team gets
/// from docker/fleet/compose.yaml, checked on loopback processes so it runs in every CI run.
/// </summary>
public sealed class FleetTests(ITestOutputHelper output)
{
    [Fact]
    public async Task EveryTcpBinding_IsServedThroughTheBalancer_ByEveryReplica()
    {
        await using var fleet = await LocalFleet.StartAsync();

        foreach (var binding in LocalFleet.Balanced.Keys)
        {
            // As many clients as replicas, each holding its connection while the next one connects: HAProxy gives a new
            // TCP connection to the replica with the fewest (leastconn), and spreads HTTP requests round robin. (Clients made
            // one after another may share a pooled connection, as WCF's NetTcp clients in one process do.)
            List<(RpcClientFactory Factory, RpcClientSession Session)> clients = [];
            try
            {
                foreach (var _ in fleet.Replicas)
                {
                    var factory = RpcClientFactory.CreateDefault();
                    var session = new RpcClientSession(factory, binding, fleet.BalancerEndpoints[binding]);
                    clients.Add((factory, session));
                    Assert.NotNull(await session.Get<IFileService>().PingAsync(new PingRequest()).Bounded());
                }

                var sessions = await fleet.Balancer.SessionsAsync(binding);
                Assert.True(fleet.Replicas.All(r => sessions.GetValueOrDefault(r.Name) > 0), $"{binding}: sessions per replica {string.Join(", ", sessions)}");
            }
            finally
            {
                foreach (var (factory, session) in clients)
                {
                    await session.DisposeAsync();
                    factory.Dispose();
                }
            }
        }
    }

    [Fact]
    public async Task ACallThroughTheBalancer_IsRecordedInTheCallersTrace_ByTheReplicaThatServedIt_OnEveryBinding()
    {
        // Every replica exports its spans over OTLP to the receiver the test plays.
        using var receiver = new OtlpHttpReceiver();
        await using var fleet = await LocalFleet.StartAsync(hostArguments: ["--otlp-endpoint", receiver.Address, "--otlp-protocol", "http/protobuf"]);
        using var factory = RpcClientFactory.CreateDefault();

        foreach (var binding in LocalFleet.Balanced.Keys)
        {
            var trace = new byte[16];
            // Sampled, as a traced caller's span is: the replicas' parent-based samplers record its children.
            using (var caller = new Activity("caller") { ActivityTraceFlags = ActivityTraceFlags.Recorded }.SetIdFormat(ActivityIdFormat.W3C).Start())
            {
                caller.TraceId.CopyTo(trace);
                var files = factory.Create<IFileService>(binding, fleet.BalancerEndpoints[binding]);
                try
                {
                    await files.PingAsync(new PingRequest()).Bounded();
                }
                finally
                {
                    await RpcClientFactory.ReleaseAsync(files);
                }
            }

            // The server span names its binding (rpccompare.binding) and carries the caller's trace id, through HAProxy's
            // TCP (wcf-nettcp, fast-tcp) and HTTP (wcf-http, grpc-tcp) modes alike.
            await Eventually.HoldsAsync(() => receiver.AnyTracePostHolds(trace, binding), TestTimeout.Default,
                () => $"{binding}: no span of the caller's trace exported ({receiver.Traces.Count} posts); the fleet:\n{fleet.Output}");
        }
    }

    [Fact]
    public async Task APublicationThroughTheBalancer_ReachesTheSubscribersOfEveryReplica_AndALongPollThroughIt_InOrder()
    {
        await using var fleet = await LocalFleet.StartAsync();
        using var factory = RpcClientFactory.CreateDefault();
        List<(string Replica, IPushClient Client, ConcurrentQueue<Notification> Received)> subscribers = [];
        try
        {
            foreach (var replica in fleet.Replicas)
            {
                var client = factory.CreatePushClient(BindingNames.FastTcp, replica.Endpoints[BindingNames.FastTcp]);
                var received = new ConcurrentQueue<Notification>();
                subscribers.Add((replica.Name, client, received));
                await client.SubscribeAsync("room", received.Enqueue).Bounded();
            }

            // Long polling through the balancer: its session lives on one replica, which HAProxy's cookie keeps the client on.
            var polling = factory.CreatePushClient(BindingNames.WcfHttp, fleet.BalancerEndpoints[BindingNames.WcfHttp]);
            var polled = new ConcurrentQueue<Notification>();
            subscribers.Add(("wcf-http through HAProxy", polling, polled));
            await polling.SubscribeAsync("room", polled.Enqueue).Bounded();

            // gRPC through HAProxy: round robin per call, so the publications are made on different replicas.
            await using var publisher = factory.CreatePushClient(BindingNames.GrpcTcp, fleet.BalancerEndpoints[BindingNames.GrpcTcp]);
            for (var i = 1; i <= 9; i++)
            {
                await publisher.PublishAsync(new Notification { Topic = "room", Items = [i.ToString(CultureInfo.InvariantCulture)] }).Bounded();
            }

            foreach (var (replica, _, received) in subscribers)
            {
                await Eventually.HoldsAsync(() => received.Count >= 9, TestTimeout.Default, () => $"{replica} received {received.Count}\n{fleet.Output}");
                Assert.Equal(Enumerable.Range(1, 9).Select(i => (long)i), received.Select(n => n.Sequence));
                Assert.Equal(Enumerable.Range(1, 9).Select(i => i.ToString(CultureInfo.InvariantCulture)), received.Select(n => n.Items.Single()));
            }

            var served = await fleet.Balancer.SessionsAsync(BindingNames.GrpcTcp);
            Assert.True(served.Values.Count(v => v > 0) > 1, $"one replica took every publication: {string.Join(", ", served)}");
        }
        finally
        {
            foreach (var (_, client, _) in subscribers)
            {
                await client.DisposeAsync();
            }
        }
    }

    [Fact]
    public async Task AReplicaKilled_LeavesTheBalancer_AndItsSubscriberResumesThroughItWithoutLoss()
    {
        await using var fleet = await LocalFleet.StartAsync();
        using var factory = RpcClientFactory.CreateDefault();
        var doomed = fleet.Replicas[0];
        var received = new ConcurrentQueue<Notification>();
        await using var publisher = factory.CreatePushClient(BindingNames.GrpcTcp, fleet.BalancerEndpoints[BindingNames.GrpcTcp]);
        await using (var lost = factory.CreatePushClient(BindingNames.FastTcp, doomed.Endpoints[BindingNames.FastTcp]))
        {
            var subscription = await lost.SubscribeAsync("room", received.Enqueue).Bounded();
            for (var i = 1; i <= 3; i++)
            {
                await publisher.PublishAsync(Numbered(i)).Bounded();
            }

            await Eventually.HoldsAsync(() => received.Count >= 3, TestTimeout.Default, () => $"received {received.Count}\n{fleet.Output}");
            await doomed.Host.KillAsync();
            await Assert.ThrowsAnyAsync<Exception>(() => subscription.Completion).Bounded();
        }

        // Publishing goes on through the balancer while it finds out: a call that reached the dead replica fails and is made again.
        var failed = 0;
        for (var i = 4; i <= 6; i++)
        {
            while (true)
            {
                try
                {
                    await publisher.PublishAsync(Numbered(i)).Bounded();
                    break;
                }
                catch (Exception e) when (e is not TimeoutException && failed < 20)
                {
                    failed++;
                }
            }
        }

        await fleet.Balancer.WaitForHealthAsync(fleet.Replicas.Count, down: doomed.Name);
        var last = received.Last().Sequence;
        await using var resumed = factory.CreatePushClient(BindingNames.FastTcp, fleet.BalancerEndpoints[BindingNames.FastTcp]);
        await resumed.SubscribeAsync("room", received.Enqueue, after: last).Bounded();
        await publisher.PublishAsync(Numbered(7)).Bounded();

        await Eventually.HoldsAsync(() => received.Count >= 7, TestTimeout.Default, () => $"received {string.Join(", ", received.Select(n => n.Sequence))}\n{fleet.Output}");
        Assert.Equal(Enumerable.Range(1, 7).Select(i => (long)i), received.Select(n => n.Sequence));
        Assert.Equal(Enumerable.Range(1, 7).Select(i => i.ToString(CultureInfo.InvariantCulture)), received.Select(n => n.Items.Single()));
        output.WriteLine($"publications refused while HAProxy still sent calls to the killed replica: {failed}");
        foreach (var binding in LocalFleet.Balanced.Keys)
        {
            var answer = await Rpcc.RunAsync(["call", "-b", binding, "-e", fleet.BalancerEndpointsFile, "Ping"]);
            Assert.True(answer.ExitCode == 0, $"{binding} after the kill: {answer.Error}");
        }
    }

    private static Notification Numbered(int number) => new() { Topic = "room", Items = [number.ToString(CultureInfo.InvariantCulture)] };
}
