using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

namespace RpcCompare.Push.Brokers.Tests;

/// <summary>
/// What every broker promises the registries of replicas sharing it (<see cref="IPushBroker"/>): one numbered
/// order per topic on every replica, resume from the log, gaps read back, strangers ignored. Each broker's
/// tests derive from this with a server of their own and the few things only that broker can do to itself.
/// </summary>
public abstract partial class PushBrokerTests
{
    protected PushBrokerTests(LoopbackServer server)
    {
        Server = server;
    }

    /// <summary>The test class's server.</summary>
    protected LoopbackServer Server { get; }

    /// <summary>How the broker's description, in errors, begins for a server on loopback.</summary>
    protected abstract string DescriptionStart { get; }

    /// <summary>A new connection to the server on <paramref name="port"/>, keeping to <paramref name="prefix"/>.</summary>
    protected abstract IPushBroker NewBroker(int port, string prefix);

    /// <summary>A server of the test's own, for tests that stop it or lose its data.</summary>
    protected abstract Task<LoopbackServer> StartServerAsync();

    /// <summary>Puts a publication in its topic's log without announcing it, as if a replica's feed had missed it.</summary>
    protected abstract Task AppendWithoutAnnouncingAsync(string prefix, Notification notification);

    /// <summary>Drops every replica's feed connection; they reconnect.</summary>
    protected abstract Task InterruptFeedsAsync();

    /// <summary>Sends messages that are not publications where the replicas' feeds listen.</summary>
    protected abstract Task PublishStrangersOnTheFeedAsync(string prefix);

    /// <summary>As <see cref="NewBroker"/>, for a port where nothing listens: quick to give up, if the broker can be told.</summary>
    protected virtual IPushBroker NewUnreachableBroker(int port, string prefix) => NewBroker(port, prefix);

    // A topic name with characters brokers' names and subjects do not allow as they are.
    private const string Awkward = "broadcast/room 1.é*>~";

    protected Replicas NewReplicas(int count = 2, int queueCapacity = 256) => NewReplicas(Server, count, queueCapacity);

    protected Replicas NewReplicas(LoopbackServer server, int count = 2, int queueCapacity = 256) =>
        new(prefix => NewBroker(server.Port, prefix), count, queueCapacity);

    [Fact]
    public async Task APublicationOnAnyReplica_ReachesTheSubscribersOfEvery_InOneNumberedOrder()
    {
        await using var replicas = NewReplicas();
        var (onFirst, firstLast) = await replicas[0].SubscribeAsync(Awkward);
        var (onSecond, secondLast) = await replicas[1].SubscribeAsync(Awkward);

        List<long> replies = [];
        for (var i = 1; i <= 40; i++)
        {
            replies.Add((await replicas[i % 2].PublishAsync(Replicas.Numbered(Awkward, i))).Sequence);
        }

        Assert.Equal((0, 0), (firstLast, secondLast));
        Assert.Equal(Enumerable.Range(1, 40).Select(i => (long)i), replies);
        foreach (var subscriber in new[] { onFirst, onSecond })
        {
            var received = await ReadAsync(subscriber, 40);
            Assert.Equal(Enumerable.Range(1, 40).Select(i => (long)i), received.Select(n => n.Sequence));
            Assert.Equal(Enumerable.Range(1, 40).Select(i => i.ToString(System.Globalization.CultureInfo.InvariantCulture)), received.Select(n => n.Items.Single()));
        }

        await AssertNextIsAMarkerAsync(replicas[0], [onFirst, onSecond], Awkward);
    }

    [Fact]
    public async Task ConcurrentPublishersOnTwoReplicas_EverySubscriberSeesEachTopicInTheSameOrder()
    {
        await using var replicas = NewReplicas();
        string[] topics = ["a", "b"];
        List<PushSubscriber> subscribers = [];
        foreach (var topic in topics)
        {
            subscribers.Add((await replicas[0].SubscribeAsync(topic)).Subscriber);
            subscribers.Add((await replicas[1].SubscribeAsync(topic)).Subscriber);
        }

        await Task.WhenAll(Enumerable.Range(0, 4).Select(p => Task.Run(async () =>
        {
            for (var i = 0; i < 50; i++)
            {
                await replicas[p % 2].PublishAsync(Replicas.Numbered(topics[p / 2], (p * 1000) + i));
            }
        })));

        foreach (var pair in subscribers.Chunk(2))
        {
            var first = await ReadAsync(pair[0], 100);
            var second = await ReadAsync(pair[1], 100);
            Assert.Equal(Enumerable.Range(1, 100).Select(i => (long)i), first.Select(n => n.Sequence));
            Assert.Equal(first.Select(n => n.Items.Single()), second.Select(n => n.Items.Single()));
        }

        foreach (var subscriber in subscribers)
        {
            subscriber.Dispose();
        }
    }

    [Fact]
    public async Task FiveHundredSubscribersOfAHundredNewTopicsAtOnce_AreAllRegistered_AndReceiveEachTopicOnce()
    {
        await using var replicas = NewReplicas(count: 1);
        var topics = Enumerable.Range(0, 100).Select(i => $"crowd {i}").ToArray();

        // Each from a thread-pool thread, as the bindings' requests come: a join that held its thread while the broker
        // answered left none for the broker's client to read the answers on, and refused most of these after 5 s.
        var subscriptions = await Task.WhenAll(Enumerable.Range(0, 500).Select(i => Task.Run(async () => await replicas[0].SubscribeAsync(topics[i % topics.Length]))));
        Assert.All(subscriptions, s => Assert.Equal(0, s.LastSequence));
        Assert.Equal((100, 500), (replicas[0].Statistics.Topics, replicas[0].Statistics.Subscribers));

        await Task.WhenAll(topics.Select(t => replicas[0].PublishAsync(Replicas.Numbered(t, 1)).AsTask()));
        foreach (var (subscriber, _) in subscriptions)
        {
            var received = Assert.Single(await ReadAsync(subscriber, 1));
            Assert.Equal((1L, subscriber.Topic), (received.Sequence, received.Topic));
            subscriber.Dispose();
        }
    }

    [Fact]
    public async Task ATopicsLogOutlivesItsSubscribers_ALaterSubscriberIsToldTheLastNumber_AndGetsWhatFollows()
    {
        await using var replicas = NewReplicas();
        for (var i = 1; i <= 3; i++)
        {
            Assert.Equal(i, (await replicas[0].PublishAsync(Replicas.Numbered("log", i))).Sequence);
        }

        var (subscriber, last) = await replicas[1].SubscribeAsync("log");
        await replicas[0].PublishAsync(Replicas.Numbered("log", 4));

        Assert.Equal(3, last);
        var received = Assert.Single(await ReadAsync(subscriber, 1));
        Assert.Equal((4L, "4"), (received.Sequence, received.Items.Single()));
    }

    [Fact]
    public async Task ASubscriberResumingOnAnotherReplica_GetsWhatItMissedFromTheLog_ThenTheLiveOnes()
    {
        await using var replicas = NewReplicas();
        var lost = (await replicas[1].SubscribeAsync("resume")).Subscriber;
        for (var i = 1; i <= 3; i++)
        {
            await replicas[0].PublishAsync(Replicas.Numbered("resume", i));
        }

        var before = await ReadAsync(lost, 3);
        lost.Dispose();
        for (var i = 4; i <= 6; i++)
        {
            await replicas[0].PublishAsync(Replicas.Numbered("resume", i));
        }

        var (resumed, last) = await replicas[0].SubscribeAsync("resume", after: before[^1].Sequence);
        await replicas[1].PublishAsync(Replicas.Numbered("resume", 7));

        Assert.Equal(6, last);
        Assert.Equal(["4", "5", "6", "7"], (await ReadAsync(resumed, 4)).Select(n => n.Items.Single()));
        await AssertNextIsAMarkerAsync(replicas[1], [resumed], "resume");
    }

    [Fact]
    public async Task AResumeOnAReplicaThatLags_SendsNothingTheSubscriberHasAlready()
    {
        await using var replicas = NewReplicas(count: 1);
        using var follower = (await replicas[0].SubscribeAsync("lag")).Subscriber;
        for (var i = 1; i <= 3; i++)
        {
            await replicas[0].PublishAsync(Replicas.Numbered("lag", i));
        }

        await ReadAsync(follower, 3);

        // As if the host the subscriber left had already delivered 5 when this one had delivered 3.
        var (resumed, last) = await replicas[0].SubscribeAsync("lag", after: 5);
        for (var i = 4; i <= 6; i++)
        {
            await replicas[0].PublishAsync(Replicas.Numbered("lag", i));
        }

        Assert.Equal(5, last);
        Assert.Equal([6L], (await ReadAsync(resumed, 1)).Select(n => n.Sequence));
        await AssertNextIsAMarkerAsync(replicas[0], [resumed], "lag");
    }

    [Fact]
    public async Task AResumeFromZero_GetsEverythingTheLogHolds_AndNotGivenGetsNothingOld()
    {
        await using var replicas = NewReplicas(count: 1);
        for (var i = 1; i <= 3; i++)
        {
            await replicas[0].PublishAsync(Replicas.Numbered("zero", i));
        }

        using var fromZero = (await replicas[0].SubscribeAsync("zero", after: 0)).Subscriber;
        using var fresh = (await replicas[0].SubscribeAsync("zero", after: null)).Subscriber;
        await replicas[0].PublishAsync(Replicas.Numbered("zero", 4));

        Assert.Equal([1L, 2, 3, 4], (await ReadAsync(fromZero, 4)).Select(n => n.Sequence));
        Assert.Equal([4L], (await ReadAsync(fresh, 1)).Select(n => n.Sequence));
        await Assert.ThrowsAsync<RpcServiceException>(async () => await replicas[0].SubscribeAsync("zero", after: -1));
    }

    [Fact]
    public async Task WhatWasPublishedWhileTheFeedWasDisconnected_ArrivesWhenItReconnects_WithoutAnotherPublication()
    {
        await using var replicas = NewReplicas(count: 1);
        using var subscriber = (await replicas[0].SubscribeAsync("outage")).Subscriber;

        // In the log, never announced (as if announced while the feed was disconnected); then the feed's connection drops.
        await AppendWithoutAnnouncingAsync(replicas.Prefix, Replicas.Numbered("outage", 1));
        await InterruptFeedsAsync();

        var received = Assert.Single(await ReadAsync(subscriber, 1));
        Assert.Equal((1L, "1"), (received.Sequence, received.Items.Single()));
    }

    [Fact]
    public async Task AResumeFurtherBackThanHalfTheQueue_GetsTheNewest_AndTheGapShowsInTheNumbers()
    {
        await using var replicas = NewReplicas(count: 1, queueCapacity: 8);
        for (var i = 1; i <= 10; i++)
        {
            await replicas[0].PublishAsync(Replicas.Numbered("far", i));
        }

        var (resumed, last) = await replicas[0].SubscribeAsync("far", after: 1);

        Assert.Equal(10, last);
        Assert.Equal([7L, 8, 9, 10], (await ReadAsync(resumed, 4)).Select(n => n.Sequence));
    }

    [Fact]
    public async Task AResumeFromTheLatestNumber_ReplaysNothing()
    {
        await using var replicas = NewReplicas(count: 1);
        await replicas[0].PublishAsync(Replicas.Numbered("latest", 1));

        var (resumed, last) = await replicas[0].SubscribeAsync("latest", after: 1);
        await replicas[0].PublishAsync(Replicas.Numbered("latest", 2));

        Assert.Equal(1, last);
        Assert.Equal([2L], (await ReadAsync(resumed, 1)).Select(n => n.Sequence));
    }

    [Fact]
    public async Task APublicationTheFeedMissed_IsReadBackFromTheLog_BeforeTheNextOne()
    {
        await using var replicas = NewReplicas();
        using var subscriber = (await replicas[1].SubscribeAsync("gap")).Subscriber;

        // Appended to the log without its announcement, as when a replica's connection to the broker was down.
        await AppendWithoutAnnouncingAsync(replicas.Prefix, Replicas.Numbered("gap", 1));
        await replicas[0].PublishAsync(Replicas.Numbered("gap", 2));

        var received = await ReadAsync(subscriber, 2);
        Assert.Equal([(1L, "1"), (2L, "2")], received.Select(n => (n.Sequence, n.Items.Single())));
    }

    [Fact]
    public async Task AStrangersMessageOnTheFeed_IsIgnored_AndTheFeedGoesOn()
    {
        await using var replicas = NewReplicas();
        using var subscriber = (await replicas[1].SubscribeAsync("strangers")).Subscriber;
        await PublishStrangersOnTheFeedAsync(replicas.Prefix);

        await replicas[0].PublishAsync(Replicas.Numbered("strangers", 1));

        var received = Assert.Single(await ReadAsync(subscriber, 1));
        Assert.Equal((1L, "1"), (received.Sequence, received.Items.Single()));
    }

    [Fact]
    public async Task ABrokerThatLostItsData_EndsTheTopicsSubscribers_SoTheySubscribeAgain()
    {
        var own = await StartServerAsync();
        await using (own)
        {
            await using var replicas = NewReplicas(own, count: 1);
            using var subscriber = (await replicas[0].SubscribeAsync("lost")).Subscriber;
            await replicas[0].PublishAsync(Replicas.Numbered("lost", 1));
            await ReadAsync(subscriber, 1);

            await own.RestartAsync(keepData: false);

            await Eventually.HoldsAsync(() => subscriber.EndReason is not null, TestTimeout.Default, () => "the subscriber was not ended");
            Assert.Contains("went back from 1 to 0", subscriber.EndReason, StringComparison.Ordinal);
            Assert.Equal(0, replicas[0].Statistics.Topics);
        }
    }

    [Fact]
    public async Task WithoutTheBroker_PublishingAndSubscribingFailWithAClearError()
    {
        await using var replicas = new Replicas(prefix => NewUnreachableBroker(FreePort.OnLoopback(), prefix), count: 1);

        var publish = await Assert.ThrowsAsync<RpcServiceException>(async () => await replicas[0].PublishAsync(Replicas.Numbered("t", 1)));
        var subscribe = await Assert.ThrowsAsync<RpcServiceException>(async () => await replicas[0].SubscribeAsync("t"));

        Assert.Equal(RpcErrorCode.Internal, publish.Code);
        Assert.StartsWith($"The push broker ({DescriptionStart}", publish.Message, StringComparison.Ordinal);
        Assert.Contains("did not answer", publish.Message, StringComparison.Ordinal);
        Assert.Contains("is not reachable", subscribe.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ABrokerThatGoesAway_RefusesANewTopicsSubscriber_AndLeavesNoEmptyTopicBehind()
    {
        var own = await StartServerAsync();
        await using var replicas = NewReplicas(own, count: 1);
        using var before = (await replicas[0].SubscribeAsync("before")).Subscriber;
        await own.DisposeAsync();

        var refused = await Assert.ThrowsAsync<RpcServiceException>(async () => await replicas[0].SubscribeAsync("after"));

        Assert.Contains("did not answer", refused.Message, StringComparison.Ordinal);
        Assert.Equal((1, 1), (replicas[0].Statistics.Topics, replicas[0].Statistics.Subscribers));
    }

    // A duplicate or extra publication would come before the marker.
    private static async Task AssertNextIsAMarkerAsync(TopicRegistry publishOn, PushSubscriber[] subscribers, string topic)
    {
        await publishOn.PublishAsync(new Notification { Topic = topic, Items = ["marker"] });
        foreach (var subscriber in subscribers)
        {
            Assert.Equal("marker", Assert.Single(await ReadAsync(subscriber, 1)).Items.Single());
        }
    }

    protected static async Task<List<Notification>> ReadAsync(PushSubscriber subscriber, int count)
    {
        List<Notification> received = [];
        using var timeout = new CancellationTokenSource(TestTimeout.Default);
        while (received.Count < count)
        {
            received.Add((await subscriber.Notifications.ReadAsync(timeout.Token)).Notification);
        }

        Assert.False(subscriber.Notifications.TryRead(out var extra), $"More than {count}: sequence {extra?.Notification.Sequence}.");
        return received;
    }
}
