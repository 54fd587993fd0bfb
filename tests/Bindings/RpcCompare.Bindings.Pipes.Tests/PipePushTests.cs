using System.Threading.Channels;
using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// The pipes binding's publish/subscribe (push frames on the request connection): every subscriber
/// of a topic gets every publication, whole and in order; an ended subscription gets nothing more;
/// topics on one connection are kept apart; a bad topic is refused.
/// </summary>
public sealed class PipePushTests : IAsyncLifetime
{
    private InProcessHost _host = null!;
    private readonly PipesClientProvider _provider = new();

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync();

    public async Task DisposeAsync() => await _host.DisposeAsync();

    [Fact]
    public async Task EverySubscriber_GetsEveryPublication_WholeAndInOrder()
    {
        await using var first = _provider.CreatePushClient(_host.PipePath);
        await using var second = _provider.CreatePushClient(_host.PipePath);
        await using var publisher = _provider.CreatePushClient(_host.PipePath);
        var toFirst = Channel.CreateUnbounded<Notification>();
        var toSecond = Channel.CreateUnbounded<Notification>();
        await using var a = await first.SubscribeAsync("room", n => toFirst.Writer.TryWrite(n)).Bounded();
        await using var b = await second.SubscribeAsync("room", n => toSecond.Writer.TryWrite(n)).Bounded();

        var replies = new List<PublishReply>();
        for (var i = 1; i <= 3; i++)
        {
            replies.Add(await publisher.PublishAsync(new Notification { Topic = "room", Publisher = "ada", SentTimestamp = 1000 + i, Items = [$"item {i}", "é"] }).Bounded());
        }

        Assert.Equal([(1L, 2), (2L, 2), (3L, 2)], replies.Select(r => (r.Sequence, r.Queued)));
        foreach (var received in new[] { toFirst, toSecond })
        {
            for (var i = 1; i <= 3; i++)
            {
                var n = await received.Reader.ReadAsync().AsTask().Bounded();
                Assert.Equal(("room", (long)i, 1000L + i, "ada"), (n.Topic, n.Sequence, n.SentTimestamp, n.Publisher));
                Assert.Equal([$"item {i}", "é"], n.Items);
            }
        }
    }

    [Fact]
    public async Task EndedSubscription_GetsNothingMore_AndIsNotCounted()
    {
        await using var subscriber = _provider.CreatePushClient(_host.PipePath);
        await using var publisher = _provider.CreatePushClient(_host.PipePath);
        var received = Channel.CreateUnbounded<Notification>();
        var subscription = await subscriber.SubscribeAsync("news", n => received.Writer.TryWrite(n)).Bounded();
        Assert.Equal(1, (await publisher.PublishAsync(new Notification { Topic = "news" }).Bounded()).Queued);
        await received.Reader.ReadAsync().AsTask().Bounded();

        await subscription.DisposeAsync();
        var after = await publisher.PublishAsync(new Notification { Topic = "news" }).Bounded();

        // A topic nobody subscribes to any more takes nothing: sequence 0, none queued (TopicRegistry).
        Assert.Equal((0L, 0), (after.Sequence, after.Queued));
        // The connection still works, and the notification published meanwhile never arrives.
        await using var again = await subscriber.SubscribeAsync("other", _ => { }).Bounded();
        Assert.False(received.Reader.TryRead(out _));
    }

    [Fact]
    public async Task TwoTopicsOnOneConnection_AreKeptApart()
    {
        await using var subscriber = _provider.CreatePushClient(_host.PipePath);
        await using var publisher = _provider.CreatePushClient(_host.PipePath);
        var red = Channel.CreateUnbounded<Notification>();
        var blue = Channel.CreateUnbounded<Notification>();
        await using var r = await subscriber.SubscribeAsync("red", n => red.Writer.TryWrite(n)).Bounded();
        await using var b = await subscriber.SubscribeAsync("blue", n => blue.Writer.TryWrite(n)).Bounded();

        await publisher.PublishAsync(new Notification { Topic = "blue", Items = ["b1"] }).Bounded();
        await publisher.PublishAsync(new Notification { Topic = "red", Items = ["r1"] }).Bounded();

        Assert.Equal(["r1"], (await red.Reader.ReadAsync().AsTask().Bounded()).Items);
        Assert.Equal(["b1"], (await blue.Reader.ReadAsync().AsTask().Bounded()).Items);
        Assert.Equal(("red", "blue"), (r.Topic, b.Topic));
    }

    [Theory]
    [InlineData("")]
    [InlineData(null)]
    public async Task PublishingToNoTopic_IsInvalidArgument(string? topic)
    {
        await using var publisher = _provider.CreatePushClient(_host.PipePath);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => publisher.PublishAsync(new Notification { Topic = topic! })).Bounded();

        Assert.Equal(RpcErrorCode.InvalidArgument, error.Code);
    }

    [Fact]
    public async Task SubscribingToATopicOverTheLimit_IsInvalidArgument()
    {
        await using var subscriber = _provider.CreatePushClient(_host.PipePath);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => subscriber.SubscribeAsync(new string('t', PushLimits.MaxTopicLength + 1), _ => { })).Bounded();

        Assert.Equal(RpcErrorCode.InvalidArgument, error.Code);
    }
}
