using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

namespace RpcCompare.Push.Brokers.Tests.Joining;

/// <summary>
/// The moments between a subscriber's arrival and its registration with a broker (a topic's join,
/// a resume read from the log), held open by <see cref="ScriptedBroker"/>: nothing published
/// meanwhile is lost or doubled, and a broker's failure refuses exactly the subscribers waiting on it.
/// </summary>
public sealed class JoiningTests : IAsyncDisposable
{
    private readonly ScriptedBroker _broker = new();
    private readonly TopicRegistry _registry;

    public JoiningTests()
    {
        _registry = NewRegistry(_broker, NullLogger<TopicRegistry>.Instance);
    }

    public ValueTask DisposeAsync() => _registry.DisposeAsync();

    [Fact]
    public async Task SubscribersOfANewTopicArrivingTogether_ShareOneQuestionToTheBroker()
    {
        var answer = HoldTheJoin();

        var waiting = Enumerable.Range(0, 20).Select(_ => _registry.SubscribeAsync("t").AsTask()).ToList();
        await JoinAskedAsync();
        Assert.All(waiting, w => Assert.False(w.IsCompleted));
        answer.SetResult(4);

        var subscriptions = await Task.WhenAll(waiting).WaitAsync(TestTimeout.Default);
        Assert.All(subscriptions, s => Assert.Equal(4, s.LastSequence));
        Assert.Equal(1, _broker.LastSequenceAsked);
        Assert.Equal((1, 20), (_registry.Statistics.Topics, _registry.Statistics.Subscribers));
    }

    [Fact]
    public async Task WhatTheFeedBringsWhileTheJoinIsAsked_IsCountedIn_AndTheNextPublicationIsTheFirstReceived()
    {
        var answer = HoldTheJoin();
        var subscribing = _registry.SubscribeAsync("t").AsTask();
        await JoinAskedAsync();

        // Published after the broker answered 5, and on the feed before the answer reached this host.
        await _broker.FeedAsync("t", 6, 7);
        answer.SetResult(5);
        var (subscriber, last) = await subscribing.WaitAsync(TestTimeout.Default);
        await _broker.FeedAsync("t", 8);

        Assert.Equal(7, last);
        Assert.Equal([8L], await ReadAsync(subscriber, 1));
    }

    [Fact]
    public async Task AResumingSubscriber_GetsTheLogsPart_ThenWhatWasPublishedWhileItWasRead_InOrder()
    {
        _broker.LastSequence = _ => Task.FromResult(5L);
        var (first, _) = await _registry.SubscribeAsync("t");
        var log = new TaskCompletionSource<IReadOnlyList<Notification>>();
        (long After, long Through)? asked = null;
        _broker.ReadLatest = (_, after, through, _) =>
        {
            asked = (after, through);
            return log.Task;
        };

        var resuming = _registry.SubscribeAsync("t", after: 2).AsTask();
        await Eventually.HoldsAsync(() => asked is not null, TestTimeout.Default, () => "the log was not read");
        await _broker.FeedAsync("t", 6, 7);
        log.SetResult([.. new long[] { 3, 4, 5 }.Select(s => new Notification { Topic = "t", Sequence = s })]);
        var (resumed, last) = await resuming.WaitAsync(TestTimeout.Default);
        await _broker.FeedAsync("t", 8);

        Assert.Equal((2L, 5L), asked);
        Assert.Equal(7, last);
        Assert.Equal([3L, 4, 5, 6, 7, 8], await ReadAsync(resumed, 6));
        Assert.Equal([6L, 7, 8], await ReadAsync(first, 3));
    }

    [Fact]
    public async Task MorePublishedWhileAResumeIsReadThanItsQueueHoldsBesideTheLogsPart_DropsThatSubscriberOnly()
    {
        _broker.LastSequence = _ => Task.FromResult(0L);
        var (first, _) = await _registry.SubscribeAsync("t");
        await _broker.FeedAsync("t", 1, 2);
        var log = new TaskCompletionSource<IReadOnlyList<Notification>>();
        var reading = false;
        _broker.ReadLatest = (_, _, _, _) =>
        {
            reading = true;
            return log.Task;
        };

        var resuming = _registry.SubscribeAsync("t", after: 1).AsTask();
        await Eventually.HoldsAsync(() => reading, TestTimeout.Default, () => "the log was not read");
        // Queue 8: half for the log's part, so the fifth held publication is one too many.
        await _broker.FeedAsync("t", 3, 4, 5, 6, 7);
        log.SetResult([new Notification { Topic = "t", Sequence = 2 }]);
        var (resumed, _) = await resuming.WaitAsync(TestTimeout.Default);

        Assert.Contains("notifications were waiting unread", resumed.EndReason, StringComparison.Ordinal);
        Assert.Equal(1, _registry.Statistics.Disconnected);
        Assert.Equal([1L, 2, 3, 4, 5, 6, 7], await ReadAsync(first, 7));
        Assert.Equal(1, _registry.Statistics.Subscribers);
    }

    [Fact]
    public async Task AJoinTheBrokerFails_RefusesEverySubscriberWaitingOnIt_LeavesNoTopic_AndTheNextOneAsksAgain()
    {
        var answer = HoldTheJoin();
        var waiting = Enumerable.Range(0, 3).Select(_ => _registry.SubscribeAsync("t").AsTask()).ToList();
        await JoinAskedAsync();

        answer.SetException(new TimeoutException("no answer in 5 s"));

        foreach (var refused in waiting)
        {
            var error = await Assert.ThrowsAsync<RpcServiceException>(() => refused);
            Assert.Equal("The push broker (scripted) did not answer: no answer in 5 s", error.Message);
        }

        Assert.Equal((0, 0), (_registry.Statistics.Topics, _registry.Statistics.Subscribers));
        _broker.LastSequence = _ => Task.FromResult(9L);
        var (_, last) = await _registry.SubscribeAsync("t");
        Assert.Equal((9L, 2), (last, _broker.LastSequenceAsked));
    }

    [Fact]
    public async Task ASubscriberThatGivesUpWaitingForTheJoin_LeavesTheOthersWaiting_AndNothingBehind()
    {
        var answer = HoldTheJoin();
        using var givingUp = new CancellationTokenSource();
        var impatient = _registry.SubscribeAsync("t", cancellationToken: givingUp.Token).AsTask();
        var patient = _registry.SubscribeAsync("t").AsTask();
        await JoinAskedAsync();

        await givingUp.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => impatient);
        answer.SetResult(3);

        Assert.Equal(3, (await patient.WaitAsync(TestTimeout.Default)).LastSequence);
        Assert.Equal((1, 1), (_registry.Statistics.Topics, _registry.Statistics.Subscribers));
    }

    [Fact]
    public async Task AFeedThatReopensWhileATopicJoins_ReadsBackWhatWasPublishedAfterTheAnswer_OnceItComes()
    {
        var answer = HoldTheJoin();
        var subscribing = _registry.SubscribeAsync("t").AsTask();
        await JoinAskedAsync();

        // The answer (5) left the broker; 6 and 7 were published while this host's feed was down.
        _broker.InterruptFeed();
        await Eventually.HoldsAsync(() => _broker.FeedsOpened == 2, TestTimeout.Default, () => "the feed was not opened again");
        _broker.LastSequence = _ => Task.FromResult(7L);
        _broker.ReadAfter = (_, after, count) => Task.FromResult<IReadOnlyList<Notification>>(
            [.. Enumerable.Range((int)after + 1, count).Where(s => s <= 7).Select(s => new Notification { Topic = "t", Sequence = s })]);
        answer.SetResult(5);
        var (subscriber, last) = await subscribing.WaitAsync(TestTimeout.Default);

        // Registered before the read-back (last 5: it receives 6 and 7) or after it (last 7): either way nothing is missed.
        Assert.InRange(last, 5, 7);
        Assert.Equal(Enumerable.Range((int)last + 1, 7 - (int)last).Select(s => (long)s), await ReadAsync(subscriber, 7 - (int)last));
    }

    // The feed's loop, having opened the feed for the first time, can still be on its way to reading it when the first
    // subscriber it let through asks its topic's join: held here at that point (its "following" log line) until the join
    // is asked. It must read the feed, not wait for that join, or an interrupted feed is never opened again.
    [Fact]
    public async Task AJoinAskedAsTheFeedFirstOpens_DoesNotKeepTheFeedFromBeingRead()
    {
        var broker = new ScriptedBroker();
        var answer = HoldTheJoin(broker);
        var feedLoop = new HeldAtFirstOpening(() => broker.LastSequenceAsked == 1);
        await using var registry = NewRegistry(broker, feedLoop);

        var subscribing = registry.SubscribeAsync("t").AsTask();
        try
        {
            await JoinAskedAsync(broker);

            // Read while the join waits: a publication of another topic is handled (FeedAsync returns once it is).
            await broker.FeedAsync("other", 1);
            broker.InterruptFeed();

            await Eventually.HoldsAsync(() => broker.FeedsOpened == 2, TestTimeout.Default, () => "the feed was not opened again");
            Assert.True(feedLoop.Held, "the feed's loop was not held at its first opening");
        }
        finally
        {
            // Answered whatever happened, or a loop waiting for the join would keep the registry's disposal waiting.
            answer.TrySetResult(5);
        }

        Assert.Equal(5, (await subscribing.WaitAsync(TestTimeout.Default)).LastSequence);
    }

    [Fact]
    public async Task ASessionsSubscriptionAnsweredAfterTheClientUnsubscribedAndSubscribedAgain_EndsItself_AndLeavesTheNewOne()
    {
        var answer = HoldTheJoin();
        var log = new TaskCompletionSource<IReadOnlyList<Notification>>();
        _broker.ReadLatest = (_, _, _, _) => log.Task;
        var session = new SessionSubscribers(_registry, "s");

        var cancelled = session.SubscribeAsync("t", after: null).AsTask();
        session.Unsubscribe("t");
        var again = session.SubscribeAsync("t", after: 0).AsTask();
        answer.SetResult(3);
        var (old, _) = await cancelled.WaitAsync(TestTimeout.Default);
        log.SetResult([]);
        var (current, _) = await again.WaitAsync(TestTimeout.Default);

        Assert.True(old.Ended.IsCancellationRequested);
        Assert.False(current.Ended.IsCancellationRequested);
        Assert.Same(current, Assert.Single(session.Snapshot()));
    }

    [Fact]
    public async Task ASessionsSubscriptionTheBrokerFailsAfterTheClientSubscribedAgain_LeavesTheNewOne()
    {
        _broker.LastSequence = _ => Task.FromResult(3L);
        var log = new TaskCompletionSource<IReadOnlyList<Notification>>();
        _broker.ReadLatest = (_, _, _, _) => log.Task;
        var session = new SessionSubscribers(_registry, "s");

        var failing = session.SubscribeAsync("t", after: 1).AsTask();
        await Eventually.HoldsAsync(() => _registry.Statistics.Topics == 1, TestTimeout.Default, () => "the topic did not join");
        session.Unsubscribe("t");
        var (current, _) = await session.SubscribeAsync("t", after: null);
        log.SetException(new TimeoutException("no answer in 5 s"));

        await Assert.ThrowsAsync<RpcServiceException>(() => failing);
        Assert.Same(current, Assert.Single(session.Snapshot()));
    }

    private static TopicRegistry NewRegistry(ScriptedBroker broker, ILogger<TopicRegistry> logger) =>
        new(Options.Create(new PushOptions { QueueCapacity = 8 }), logger, broker);

    private TaskCompletionSource<long> HoldTheJoin() => HoldTheJoin(_broker);

    // The broker's answer to a topic's join, held until the test gives it.
    private static TaskCompletionSource<long> HoldTheJoin(ScriptedBroker broker)
    {
        var answer = new TaskCompletionSource<long>();
        broker.LastSequence = _ => answer.Task;
        return answer;
    }

    private Task JoinAskedAsync() => JoinAskedAsync(_broker);

    private static Task JoinAskedAsync(ScriptedBroker broker) =>
        Eventually.HoldsAsync(() => broker.LastSequenceAsked == 1, TestTimeout.Default, () => "the join was not asked");

    private static async Task<List<long>> ReadAsync(PushSubscriber subscriber, int count)
    {
        List<long> received = [];
        using var timeout = new CancellationTokenSource(TestTimeout.Default);
        while (received.Count < count)
        {
            received.Add((await subscriber.Notifications.ReadAsync(timeout.Token)).Notification.Sequence);
        }

        Assert.False(subscriber.Notifications.TryRead(out var extra), $"More than {count}: sequence {extra?.Notification.Sequence}.");
        return received;
    }

    // Holds the thread that logs the feed's first opening until the condition holds (at most 10 s).
    private sealed class HeldAtFirstOpening(Func<bool> until) : ILogger<TopicRegistry>
    {
        private const int FeedOpened = 4;

        public bool Held { get; private set; }

        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (eventId.Id == FeedOpened)
            {
                Held = SpinWait.SpinUntil(until, TimeSpan.FromSeconds(10));
            }
        }
    }
}
