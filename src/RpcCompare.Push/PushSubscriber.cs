using System.Threading.Channels;

namespace RpcCompare.Push;

/// <summary>
/// One subscription to one topic: the queue a binding pumps onto its connection. Dispose it when
/// the connection ends; the registry ends it when the queue overflows (<see cref="EndReason"/>).
/// </summary>
public sealed class PushSubscriber : IDisposable
{
    private readonly TopicRegistry _registry;
    private readonly Channel<Publication> _queue;
    private readonly CancellationTokenSource _ended = new();
    private int _endedFlag;

    internal PushSubscriber(TopicRegistry registry, string topic, long id, int capacity)
    {
        _registry = registry;
        Topic = topic;
        Id = id;
        Capacity = capacity;
        _queue = Channel.CreateBounded<Publication>(new BoundedChannelOptions(capacity)
        {
            SingleReader = true,
            // Writes happen under the topic's lock, but ending the subscription completes the queue from any thread.
            SingleWriter = false,
            FullMode = BoundedChannelFullMode.Wait,
        });
    }

    public string Topic { get; }

    /// <summary>Unique within the registry, for logs.</summary>
    public long Id { get; }

    /// <summary>Notifications that may wait in the queue.</summary>
    public int Capacity { get; }

    /// <summary>The publications to send, in order. Completes when the subscription ends, with an error when the server ended it.</summary>
    public ChannelReader<Publication> Notifications => _queue.Reader;

    /// <summary>Cancelled when the subscription ends, for whatever reason: a pump waiting on its connection stops.</summary>
    public CancellationToken Ended => _ended.Token;

    /// <summary>Why the server ended it (queue full), or null while it lasts or when the subscriber left.</summary>
    public string? EndReason { get; private set; }

    /// <summary>Unsubscribes; nothing more is queued.</summary>
    public void Dispose() => _registry.Remove(this);

    /// <summary>
    /// Publications numbered up to this one are not queued: a resuming subscriber has them already
    /// (set under the topic's lock before it joins; 0 for everyone else).
    /// </summary>
    internal long Floor { get; set; }

    /// <summary>Ended, by the subscriber or the server; it may still be in its topic for a moment.</summary>
    internal bool IsEnded => Volatile.Read(ref _endedFlag) == 1;

    /// <summary>Called under the topic's lock: false when the queue is full, or the subscription has ended.</summary>
    internal bool TryEnqueue(Publication publication) => _queue.Writer.TryWrite(publication);

    /// <summary>Ends the subscription once; a reason marks an end the subscriber did not ask for.</summary>
    internal bool End(string? reason)
    {
        if (Interlocked.Exchange(ref _endedFlag, 1) == 1)
        {
            return false;
        }

        EndReason = reason;
        _queue.Writer.TryComplete(reason is null ? null : new PushSubscriberDisconnectedException(reason));
        _ended.Cancel();
        return true;
    }
}
