using System.Runtime.CompilerServices;
using System.Threading.Channels;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Brokers.Tests.Joining;

/// <summary>
/// A broker whose answers a test holds and releases, and whose feed the test writes: to put a
/// registry in the moments a real broker only passes through (a join asked, a resume being read).
/// </summary>
internal sealed class ScriptedBroker : IPushBroker
{
    private Channel<(Notification Notification, TaskCompletionSource? Handled)> _feed = Channel.CreateUnbounded<(Notification, TaskCompletionSource?)>();
    private int _lastSequenceAsked;

    public string Description => "scripted";

    /// <summary>Answers <see cref="LastSequenceAsync"/>; 0 at once unless the test says otherwise.</summary>
    public Func<string, Task<long>> LastSequence { get; set; } = _ => Task.FromResult(0L);

    /// <summary>Answers <see cref="ReadLatestAsync"/> (topic, after, through, count); nothing unless the test says otherwise.</summary>
    public Func<string, long, long, int, Task<IReadOnlyList<Notification>>> ReadLatest { get; set; } = (_, _, _, _) => Task.FromResult<IReadOnlyList<Notification>>([]);

    /// <summary>Answers <see cref="ReadAfterAsync"/> (topic, after, count); nothing unless the test says otherwise.</summary>
    public Func<string, long, int, Task<IReadOnlyList<Notification>>> ReadAfter { get; set; } = (_, _, _) => Task.FromResult<IReadOnlyList<Notification>>([]);

    /// <summary>How many times a registry opened the feed.</summary>
    public int FeedsOpened { get; private set; }

    /// <summary>How many times a registry asked for a topic's last number.</summary>
    public int LastSequenceAsked => Volatile.Read(ref _lastSequenceAsked);

    public Task<long> LastSequenceAsync(string topic, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _lastSequenceAsked);
        return LastSequence(topic);
    }

    public Task<IReadOnlyList<Notification>> ReadLatestAsync(string topic, long after, long through, int count, CancellationToken cancellationToken) =>
        ReadLatest(topic, after, through, count);

    public Task<IReadOnlyList<Notification>> ReadAfterAsync(string topic, long after, int count, CancellationToken cancellationToken) =>
        ReadAfter(topic, after, count);

    public Task<long> PublishAsync(Notification notification, CancellationToken cancellationToken) =>
        throw new NotSupportedException("The tests put publications on the feed themselves (FeedAsync).");

    public Task<IPushFeed> OpenFeedAsync(CancellationToken cancellationToken)
    {
        FeedsOpened++;
        return Task.FromResult<IPushFeed>(new Feed(_feed.Reader));
    }

    /// <summary>Ends the feed, as a lost connection to the broker does; the registry opens the next one.</summary>
    public void InterruptFeed()
    {
        var ended = _feed;
        _feed = Channel.CreateUnbounded<(Notification, TaskCompletionSource?)>();
        ended.Writer.Complete();
    }

    /// <summary>
    /// Puts publications on the feed, numbered, and returns once the registry has handled them: the feed hands
    /// one on only after the one before, so the last is handled when the registry asks for what follows it.
    /// </summary>
    public async Task FeedAsync(string topic, params long[] sequences)
    {
        var handled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        for (var i = 0; i < sequences.Length; i++)
        {
            var notification = new Notification { Topic = topic, Sequence = sequences[i], Items = [$"{sequences[i]}"] };
            await _feed.Writer.WriteAsync((notification, i == sequences.Length - 1 ? handled : null));
        }

        await handled.Task.WaitAsync(Testing.TestTimeout.Default);
    }

    private sealed class Feed(ChannelReader<(Notification Notification, TaskCompletionSource? Handled)> reader) : IPushFeed
    {
        public async IAsyncEnumerable<Notification> ReadAllAsync([EnumeratorCancellation] CancellationToken cancellationToken)
        {
            await foreach (var (notification, handled) in reader.ReadAllAsync(cancellationToken))
            {
                yield return notification;

                // Resumed: the registry is done with it and asks for the next.
                handled?.TrySetResult();
            }
        }

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
