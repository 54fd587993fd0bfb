using System.Diagnostics;
using RpcCompare.Bindings.Push;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests.Push;

/// <summary>
/// Publish/subscribe over every binding that can push, through the client factory: delivery in
/// order without loss, a stalled subscriber dropped without holding up the others, and
/// subscriptions that leave nothing behind. No latency is asserted.
/// </summary>
[Collection(PushTestsRunAlone.Name)]
public sealed class PushBindingTests : IAsyncLifetime
{
    private const int QueueCapacity = 16;
    private InProcessHost _host = null!;
    private RpcClientFactory _factory = null!;

    /// <summary>Every push binding with each of its variants (WCF: typed and pre-serialized callbacks).</summary>
    public static TheoryData<string, string> PushVariants
    {
        get
        {
            using var factory = RpcClientFactory.CreateDefault();
            var data = new TheoryData<string, string>();
            foreach (var binding in factory.PushBindings)
            {
                foreach (var variant in factory.PushVariants(binding))
                {
                    data.Add(binding, variant);
                }
            }

            return data;
        }
    }

    public async Task InitializeAsync()
    {
        // The multiplexed gRPC variant puts every subscriber of a test on one connection: raise
        // Kestrel's 100 streams past the 300 of the in-order test (GrpcMultiplexedPushTests shows the default).
        _host = await InProcessHost.StartAsync(configurePush: o => o.QueueCapacity = QueueCapacity, configureGrpc: o => o.MaxStreamsPerConnection = 1_000);
        _factory = RpcClientFactory.CreateDefault();
    }

    public async Task DisposeAsync()
    {
        _factory.Dispose();
        await _host.DisposeAsync();
    }

    [Theory]
    [MemberData(nameof(PushVariants))]
    public async Task Subscribers_ReceiveEveryPublication_InOrder(string binding, string variant)
    {
        const int subscribers = 300;
        const int publications = 20;
        var topic = $"in-order-{binding}-{variant}";
        var clients = new List<IPushClient>();
        var received = new List<ReceivedNotifications>();
        try
        {
            for (var i = 0; i < subscribers; i++)
            {
                // Each subscriber on a connection of its own, as the push suite measures them (multiplexed: all on one).
                var client = _factory.CreatePushClient(binding, _host.Address(binding), variant);
                clients.Add(client);
                var notifications = new ReceivedNotifications();
                received.Add(notifications);
                await client.SubscribeAsync(topic, notifications.Add).Bounded();
            }

            await using var publisher = _factory.CreatePushClient(binding, _host.Address(binding), variant);
            for (var i = 1; i <= publications; i++)
            {
                var reply = await publisher.PublishAsync(NewNotification(topic, i)).Bounded();
                Assert.Equal(i, reply.Sequence);
                Assert.Equal(subscribers, reply.Queued);
            }

            await Task.WhenAll(received.Select(r => r.CountAsync(publications))).Bounded();
            var expected = Enumerable.Range(1, publications).Select(i => (long)i).ToList();
            Assert.All(received, r => Assert.Equal(expected, r.Sequences));

            // Pipes frames, WCF pre-serialized messages and long-poll JSON are serialized once per publication for all
            // 300 subscribers; gRPC and typed WCF callbacks serialize per subscriber, outside the registry.
            Assert.Equal(SharesEncoding(variant) ? publications : 0, _host.Topics.Statistics.SharedEncodings);
        }
        finally
        {
            await Task.WhenAll(clients.Select(c => c.DisposeAsync().AsTask()));
        }

        // The subscribers left by closing their connections, not by unsubscribing: the server still forgets them.
        await WaitForAsync(() => _host.Topics.Statistics.Subscribers == 0);
        Assert.Equal(0, _host.Topics.Statistics.Subscribers);
    }

    [Theory]
    [MemberData(nameof(PushVariants))]
    public async Task StalledSubscriber_IsDisconnected_WhileTheOthersReceiveEverything(string binding, string variant)
    {
        // 20 items of 2,000 characters: a few hundred notifications fill the socket buffers, then the queue.
        const int publications = 400;
        var topic = $"stalled-{binding}-{variant}";
        using var release = new ManualResetEventSlim();
        await using var stalled = _factory.CreatePushClient(binding, _host.Address(binding), variant);
        var stalledSubscription = await stalled.SubscribeAsync(topic, _ => release.Wait(TestTimeout.Default)).Bounded();
        var healthy = new List<(IPushClient Client, ReceivedNotifications Received)>();
        try
        {
            for (var i = 0; i < 3; i++)
            {
                var client = _factory.CreatePushClient(binding, _host.Address(binding), variant);
                var received = new ReceivedNotifications();
                healthy.Add((client, received));
                await client.SubscribeAsync(topic, received.Add).Bounded();
            }

            await using var publisher = _factory.CreatePushClient(binding, _host.Address(binding), variant);
            var disconnected = 0;
            for (var i = 1; i <= publications; i++)
            {
                // The publisher stays within half a queue of the healthy subscribers, so they keep up
                // on any binding however slow its sends are, and only the stalled one falls behind.
                await Task.WhenAll(healthy.Select(h => h.Received.CountAsync(i - (QueueCapacity / 2)))).Bounded();
                disconnected += (await publisher.PublishAsync(NewNotification(topic, i, itemLength: 2_000)).Bounded()).Disconnected;
            }

            // The others got every publication while the stalled one still blocks its connection.
            await Task.WhenAll(healthy.Select(h => h.Received.CountAsync(publications))).Bounded();
            Assert.All(healthy, h => Assert.Equal(publications, h.Received.Sequences.Count));
            Assert.Equal(1, disconnected);
            Assert.Equal(1, _host.Topics.Statistics.Disconnected);
            Assert.Equal(3, _host.Topics.Statistics.Subscribers);
        }
        finally
        {
            release.Set();
            await Task.WhenAll(healthy.Select(h => h.Client.DisposeAsync().AsTask()));
        }

        var ended = await Assert.ThrowsAsync<PushSubscriptionEndedException>(() => stalledSubscription.Completion.Bounded());
        Assert.False(string.IsNullOrEmpty(ended.Message));

        // A WCF, gRPC or long-poll push client opens a new session for the next subscription rather than
        // calling on the dead one; the frame clients (fast, pipes) are one connection each and stay closed.
        if (variant == "frames")
        {
            await Assert.ThrowsAsync<IOException>(() => stalled.SubscribeAsync(topic, _ => { })).Bounded();
            return;
        }

        var again = new ReceivedNotifications();
        await stalled.SubscribeAsync(topic, again.Add).Bounded();
        await using (var publisher = _factory.CreatePushClient(binding, _host.Address(binding), variant))
        {
            await publisher.PublishAsync(NewNotification(topic, publications + 1, itemLength: 10)).Bounded();
        }

        await again.CountAsync(1).Bounded();
    }

    [Theory]
    [MemberData(nameof(PushVariants))]
    public async Task SubscribeUnsubscribeCycles_LeaveConnectionsAndMemoryAtBaseline(string binding, string variant)
    {
        const int cycles = 10_000;
        var topic = $"cycles-{binding}-{variant}";
        await using (var warmUp = _factory.CreatePushClient(binding, _host.Address(binding), variant))
        {
            await (await warmUp.SubscribeAsync(topic, _ => { }).Bounded()).DisposeAsync();
        }

        var (socketsBefore, memoryBefore) = Baseline();
        await using (var client = _factory.CreatePushClient(binding, _host.Address(binding), variant))
        {
            var watch = Stopwatch.StartNew();
            for (var i = 0; i < cycles; i++)
            {
                var subscription = await client.SubscribeAsync(i % 2 == 0 ? topic : $"{topic}-{i}", _ => { }).Bounded();
                await subscription.DisposeAsync();
                Assert.True(watch.Elapsed < TimeSpan.FromMinutes(2), $"{i} cycles in {watch.Elapsed}: bounded run stopped");
            }

            // The server may learn of the last cancellations a moment later (a gRPC stream reset).
            await WaitForAsync(() => _host.Topics.Statistics.Subscribers == 0);
            Assert.Equal((0, 0), (_host.Topics.Statistics.Topics, _host.Topics.Statistics.Subscribers));
        }

        await WaitForAsync(() => Baseline().Sockets <= socketsBefore);
        var (socketsAfter, memoryAfter) = Baseline();
        Assert.True(socketsAfter <= socketsBefore, $"sockets {socketsBefore} before, {socketsAfter} after");
        Assert.True(memoryAfter - memoryBefore < 16 * 1024 * 1024, $"managed heap {memoryBefore:#,0} bytes before, {memoryAfter:#,0} after {cycles:#,0} cycles");
    }

    [Theory]
    [MemberData(nameof(PushVariants))]
    public async Task Subscribe_ToAnOverlongTopic_IsRefused_AndTheClientStillServes(string binding, string variant)
    {
        await using var client = _factory.CreatePushClient(binding, _host.Address(binding), variant);

        var refused = await Assert.ThrowsAsync<RpcServiceException>(() => client.SubscribeAsync(new string('t', PushLimits.MaxTopicLength + 1), _ => { }).Bounded());

        Assert.Equal(RpcErrorCode.InvalidArgument, refused.Code);
        var received = new ReceivedNotifications();
        await using var subscription = await client.SubscribeAsync($"after-refusal-{binding}", received.Add).Bounded();
        await client.PublishAsync(NewNotification($"after-refusal-{binding}", 1)).Bounded();
        await received.CountAsync(1).Bounded();
    }

    [Theory]
    [MemberData(nameof(PushVariants))]
    public async Task DisposingTheClient_CompletesItsSubscriptions_AsLeft_AndTheServerForgetsThem(string binding, string variant)
    {
        var client = _factory.CreatePushClient(binding, _host.Address(binding), variant);
        var subscription = await client.SubscribeAsync($"disposed-{binding}-{variant}", _ => { }).Bounded();

        await client.DisposeAsync();

        // Left, not ended by the server: Completion succeeds.
        await subscription.Completion.Bounded();
        await WaitForAsync(() => _host.Topics.Statistics.Subscribers == 0);
        Assert.Equal((0, 0L), (_host.Topics.Statistics.Subscribers, _host.Topics.Statistics.Disconnected));
    }

    private static bool SharesEncoding(string variant) => variant is "frames" or "pre-serialized" or "long-poll";

    private static Notification NewNotification(string topic, int number, int itemLength = 8) => new()
    {
        Topic = topic,
        SentTimestamp = Stopwatch.GetTimestamp(),
        Publisher = "test",
        Items = [.. Enumerable.Range(0, 20).Select(i => $"{number}:{i}:".PadRight(itemLength, 'x'))],
    };

    private static (int Sockets, long Memory) Baseline()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        return (ProcessSockets.Count(), GC.GetTotalMemory(forceFullCollection: true));
    }

    private static async Task WaitForAsync(Func<bool> condition)
    {
        var watch = Stopwatch.StartNew();
        while (!condition() && watch.Elapsed < TimeSpan.FromSeconds(10))
        {
            await Task.Delay(100);
        }
    }
}
