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
    private Channel<Notification> _feed = Channel.CreateUnbounded<Notification>();
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
        _feed = Channel.CreateUnbounded<Notification>();
        ended.Writer.Complete();
    }

    /// <summary>
    /// Puts publications on the feed, numbered, and returns once the registry has handled them: a
    /// publication of another topic follows, and the feed hands one on only after the one before.
    /// </summary>
    public async Task FeedAsync(string topic, params long[] sequences)
    {
        foreach (var sequence in sequences)
        {
            await _feed.Writer.WriteAsync(new Notification { Topic = topic, Sequence = sequence, Items = [$"{sequence}"] });
        }

        await _feed.Writer.WriteAsync(new Notification { Topic = "(nobody's)", Sequence = 1 });
        using var timeout = new CancellationTokenSource(Testing.TestTimeout.Default);
        while (_feed.Reader.Count > 0)
        {
            await Task.Delay(10, timeout.Token);
        }
    }

    private sealed class Feed(ChannelReader<Notification> reader) : IPushFeed
    {
        public async IAsyncEnumerable<Notification> ReadAllAsync([EnumeratorCancellation] CancellationToken cancellationToken)
        {
            await foreach (var notification in reader.ReadAllAsync(cancellationToken))
            {
                yield return notification;
            }
        }

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
