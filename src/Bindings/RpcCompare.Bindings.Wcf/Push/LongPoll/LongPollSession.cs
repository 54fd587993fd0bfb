using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push.LongPoll;

/// <summary>
/// One long-polling client: its subscriptions, drained by one poll at a time. Between polls the
/// notifications wait in the subscribers' bounded queues, so a client that stops polling has its
/// subscriptions dropped by the registry like any stalled subscriber.
/// </summary>
internal sealed class LongPollSession
{
    private readonly Dictionary<string, PushSubscriber> _subscribers = new(StringComparer.Ordinal);
    private readonly List<LongPollWire.EndedSubscription> _ended = [];
    private int _polling;
    private TaskCompletionSource _changed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _lastSeen = Environment.TickCount64;
    private bool _closed;

    public LongPollSession(string id)
    {
        Id = id;
    }

    public string Id { get; }

    /// <summary>Milliseconds since the client last asked for anything, 0 while a poll is waiting.</summary>
    public long IdleMilliseconds => Volatile.Read(ref _polling) == 1 ? 0 : Environment.TickCount64 - Interlocked.Read(ref _lastSeen);

    public void Touch() => Interlocked.Exchange(ref _lastSeen, Environment.TickCount64);

    public long Subscribe(TopicRegistry registry, string topic)
    {
        Touch();
        lock (_subscribers)
        {
            ObjectDisposedException.ThrowIf(_closed, this);
            if (_subscribers.ContainsKey(topic))
            {
                throw new InvalidOperationException($"Session {Id} already subscribes to '{topic}'.");
            }

            _subscribers.Add(topic, registry.Subscribe(topic, out var lastSequence));
            Changed();
            return lastSequence;
        }
    }

    public void Unsubscribe(string topic)
    {
        Touch();
        PushSubscriber? subscriber;
        lock (_subscribers)
        {
            _subscribers.Remove(topic, out subscriber);
            Changed();
        }

        subscriber?.Dispose();
    }

    /// <summary>Ends every subscription: the client closed the session, or it expired.</summary>
    public void Close()
    {
        List<PushSubscriber> subscribers;
        lock (_subscribers)
        {
            _closed = true;
            subscribers = [.. _subscribers.Values];
            _subscribers.Clear();
            Changed();
        }

        foreach (var subscriber in subscribers)
        {
            subscriber.Dispose();
        }
    }

    /// <summary>
    /// What is queued now, or once something arrives within <paramref name="wait"/>: publications
    /// in order per topic, at most <paramref name="maxBatch"/>, and any subscription the server ended.
    /// </summary>
    /// <exception cref="InvalidOperationException">Another poll of this session is still waiting.</exception>
    public async Task<(List<Publication> Publications, List<LongPollWire.EndedSubscription> Ended)> PollAsync(TimeSpan wait, int maxBatch, CancellationToken cancellationToken)
    {
        if (Interlocked.Exchange(ref _polling, 1) == 1)
        {
            throw new InvalidOperationException($"Session {Id} is already being polled; poll one request at a time.");
        }

        try
        {
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(wait);
            while (true)
            {
                var (publications, ended, waitFor) = Drain(maxBatch);
                if (publications.Count > 0 || ended.Count > 0 || timeout.IsCancellationRequested)
                {
                    return (publications, ended);
                }

                try
                {
                    await Task.WhenAny(waitFor.Select(reader => reader.WaitToReadAsync(timeout.Token).AsTask()).Append(ChangedTask())).WaitAsync(timeout.Token);
                }
                catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
                {
                    // Waited long enough: one more drain, then an empty reply.
                }
            }
        }
        finally
        {
            Touch();
            Volatile.Write(ref _polling, 0);
        }
    }

    private (List<Publication>, List<LongPollWire.EndedSubscription>, List<System.Threading.Channels.ChannelReader<Publication>>) Drain(int maxBatch)
    {
        List<Publication> publications = [];
        List<System.Threading.Channels.ChannelReader<Publication>> readers = [];
        lock (_subscribers)
        {
            foreach (var (topic, subscriber) in _subscribers.ToList())
            {
                var reader = subscriber.Notifications;
                while (publications.Count < maxBatch && reader.TryRead(out var publication))
                {
                    publications.Add(publication);
                }

                if (subscriber.EndReason is { } reason && !reader.TryPeek(out _))
                {
                    // Dropped by the registry, and everything it queued before that is delivered.
                    _subscribers.Remove(topic);
                    _ended.Add(new(topic, reason));
                    continue;
                }

                readers.Add(reader);
            }

            List<LongPollWire.EndedSubscription> ended = [.. _ended];
            _ended.Clear();
            _changed = _changed.Task.IsCompleted ? new(TaskCreationOptions.RunContinuationsAsynchronously) : _changed;
            return (publications, ended, readers);
        }
    }

    private Task ChangedTask()
    {
        lock (_subscribers)
        {
            return _changed.Task;
        }
    }

    private void Changed() => _changed.TrySetResult();
}
