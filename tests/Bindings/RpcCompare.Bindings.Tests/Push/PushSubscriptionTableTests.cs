using RpcCompare.Bindings.Push;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Bindings.Tests.Push;

/// <summary>
/// One push connection's subscriptions: what it receives reaches its topic's subscriber only, and
/// every way a subscription can end completes it the way <see cref="IPushSubscription.Completion"/> promises.
/// </summary>
public sealed class PushSubscriptionTableTests
{
    private readonly PushSubscriptionTable _table = new();
    private readonly List<string> _received = [];
    private readonly List<RoutedPushSubscription> _unsubscribed = [];

    [Fact]
    public void ANotification_ReachesItsTopicsSubscriberOnly_InOrder()
    {
        Add("news");
        Add("sport");

        _table.Deliver(Note("news", 1));
        _table.Deliver(Note("sport", 1));
        _table.Deliver(Note("news", 2));
        _table.Deliver(Note("weather", 1));

        Assert.Equal(["news/news#1", "sport/sport#1", "news/news#2"], _received);
    }

    [Fact]
    public void ASecondSubscriptionToATopic_IsRefused_AndTheFirstKeepsReceiving()
    {
        var first = Add("news");

        var error = Assert.Throws<InvalidOperationException>(() => Add("news"));
        _table.Deliver(Note("news", 1));

        Assert.Equal("This client already subscribes to 'news'; one subscription per topic and connection.", error.Message);
        Assert.True(_table.Contains(first));
        Assert.Equal(["news/news#1"], _received);
    }

    [Fact]
    public async Task Removing_CompletesTheSubscriptionSuccessfully_AndStopsDelivery()
    {
        var subscription = Add("news");

        _table.Remove(subscription);
        _table.Deliver(Note("news", 1));

        Assert.False(_table.Contains(subscription));
        Assert.True(subscription.IsEnded);
        await subscription.Completion;
        Assert.Empty(_received);
    }

    [Fact]
    public void RemovingAnOldSubscription_LeavesTheNewOneOfItsTopic()
    {
        var old = Add("news");
        _table.Remove(old);
        var current = Add("news");

        _table.Remove(old);
        _table.Deliver(Note("news", 1));

        Assert.True(_table.Contains(current));
        Assert.False(_table.Contains(old));
        Assert.Equal(["news/news#1"], _received);
    }

    [Fact]
    public async Task TheServerEndingATopic_FailsThatSubscriptionWithTheReason_AndNoOther()
    {
        var news = Add("news");
        var sport = Add("sport");

        _table.End("news", "queue full");
        _table.End("weather", "never subscribed");

        var error = await Assert.ThrowsAsync<PushSubscriptionEndedException>(() => news.Completion);
        Assert.Equal("queue full", error.Message);
        Assert.Null(error.InnerException);
        Assert.False(_table.Contains(news));
        Assert.False(sport.IsEnded);
    }

    [Fact]
    public async Task TheClientClosingTheConnection_CompletesEverySubscriptionSuccessfully()
    {
        var news = Add("news");
        var sport = Add("sport");

        _table.EndAll(reason: null, cause: null);

        await news.Completion;
        await sport.Completion;
        Assert.False(_table.Contains(news) || _table.Contains(sport));
    }

    [Fact]
    public async Task TheConnectionBreaking_FailsEverySubscriptionWithTheReasonAndItsCause()
    {
        var news = Add("news");
        var sport = Add("sport");
        var cause = new IOException("reset by peer");

        _table.EndAll("connection lost", cause);
        _table.Deliver(Note("news", 1));

        foreach (var subscription in new[] { news, sport })
        {
            var error = await Assert.ThrowsAsync<PushSubscriptionEndedException>(() => subscription.Completion);
            Assert.Equal("connection lost", error.Message);
            Assert.Same(cause, error.InnerException);
        }

        Assert.Empty(_received);
    }

    [Fact]
    public async Task DisposingALiveSubscription_AsksTheServerOnce_AndAnEndedOneDoesNotAsk()
    {
        var live = Add("news");
        var ended = Add("sport");
        _table.End("sport", "dropped");

        await live.DisposeAsync();
        await ended.DisposeAsync();

        Assert.Equal([live], _unsubscribed);
    }

    [Fact]
    public void ADeliveryAfterTheSubscriptionEnded_IsNotHandedToTheSubscriber()
    {
        var subscription = Add("news");
        subscription.Unsubscribed();

        subscription.Deliver(Note("news", 1));

        Assert.Empty(_received);
    }

    [Fact]
    public void MissingArguments_AreProgrammingErrors()
    {
        Assert.Throws<ArgumentNullException>(() => _table.Add(null!, _ => { }, _ => Task.CompletedTask));
        Assert.Throws<ArgumentNullException>(() => _table.Add("news", null!, _ => Task.CompletedTask));
        Assert.Throws<ArgumentNullException>(() => _table.Remove(null!));
        Assert.Throws<ArgumentNullException>(() => _table.Deliver(null!));
    }

    private RoutedPushSubscription Add(string topic) =>
        _table.Add(topic, n => _received.Add($"{topic}/{n.Topic}#{n.Sequence}"), s =>
        {
            _unsubscribed.Add(s);
            return Task.CompletedTask;
        });

    private static Notification Note(string topic, long sequence) => new() { Topic = topic, Sequence = sequence };
}
