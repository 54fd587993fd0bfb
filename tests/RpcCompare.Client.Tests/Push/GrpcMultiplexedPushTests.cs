using RpcCompare.Bindings;
using RpcCompare.Bindings.Grpc.Push;
using RpcCompare.Bindings.Push;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests.Push;

/// <summary>
/// gRPC subscriptions multiplexed on one HTTP/2 connection: Kestrel's default of 100 concurrent
/// streams holds the 101st subscription back until a stream is free, and a raised limit carries
/// hundreds on the one connection.
/// </summary>
[Collection(PushTestsRunAlone.Name)]
public sealed class GrpcMultiplexedPushTests
{
    public static TheoryData<string> GrpcBindings => [BindingNames.GrpcTcp, BindingNames.GrpcUds];

    [Theory]
    [MemberData(nameof(GrpcBindings))]
    public async Task PastKestrelsDefault100Streams_ASubscriptionWaits_UntilAStreamIsFree(string binding)
    {
        await using var host = await InProcessHost.StartAsync();
        using var factory = RpcClientFactory.CreateDefault();
        var topic = $"stream-limit-{binding}";
        var clients = new List<IPushClient>();
        try
        {
            var subscriptions = new List<IPushSubscription>();
            for (var i = 0; i < 100; i++)
            {
                var client = factory.CreatePushClient(binding, host.Address(binding), GrpcPushVariants.Multiplexed);
                clients.Add(client);
                subscriptions.Add(await client.SubscribeAsync(topic, _ => { }).Bounded());
            }

            var sockets = ProcessSockets.Count();
            var waiting = factory.CreatePushClient(binding, host.Address(binding), GrpcPushVariants.Multiplexed);
            clients.Add(waiting);
            var received = new ReceivedNotifications();
            var the101st = waiting.SubscribeAsync(topic, received.Add);

            // Not refused, not confirmed: the request waits in the client for a stream of the one connection.
            await Task.Delay(TimeSpan.FromSeconds(1));
            Assert.False(the101st.IsCompleted, "the 101st subscription on one connection was answered while 100 streams were open");
            Assert.Equal(100, host.Topics.Statistics.Subscribers);
            Assert.Equal(sockets, ProcessSockets.Count());

            await subscriptions[0].DisposeAsync();
            await using var subscription = await the101st.Bounded();
            await using var publisher = factory.CreatePushClient(binding, host.Address(binding));
            await publisher.PublishAsync(new() { Topic = topic, Publisher = "test", Items = ["after a stream was freed"] }).Bounded();
            await received.CountAsync(1).Bounded();
        }
        finally
        {
            await Task.WhenAll(clients.Select(c => c.DisposeAsync().AsTask()));
        }
    }

    [Theory]
    [MemberData(nameof(GrpcBindings))]
    public async Task WithTheStreamLimitRaised_HundredsOfSubscriptionsShareOneConnection(string binding)
    {
        const int subscribers = 300;
        await using var host = await InProcessHost.StartAsync(configureGrpc: o => o.MaxStreamsPerConnection = 1_000);
        using var factory = RpcClientFactory.CreateDefault();
        var socketsBefore = ProcessSockets.Count();
        var clients = new List<IPushClient>();
        try
        {
            for (var i = 0; i < subscribers; i++)
            {
                var client = factory.CreatePushClient(binding, host.Address(binding), GrpcPushVariants.Multiplexed);
                clients.Add(client);
                await client.SubscribeAsync($"shared-{binding}", _ => { }).Bounded();
            }

            Assert.Equal(subscribers, host.Topics.Statistics.Subscribers);
            // One connection: its client end and the host's end, both in this process. (That the client
        // holds to one connection past the server's limit is the test above's.)
            var opened = ProcessSockets.Count() - socketsBefore;
            Assert.True(opened <= 2, $"{subscribers} multiplexed subscriptions opened {opened} sockets");
        }
        finally
        {
            await Task.WhenAll(clients.Select(c => c.DisposeAsync().AsTask()));
        }
    }
}
