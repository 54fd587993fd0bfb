using System.Threading.Channels;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push.LongPoll;

/// <summary>
/// One long-polling client: its subscriptions, drained by one poll at a time. Between polls the
/// notifications wait in the subscribers' bounded queues, so a client that stops polling has its
/// subscriptions dropped by the registry like any stalled subscriber.
/// </summary>
internal sealed class LongPollSession
{
    private readonly SessionSubscribers _subscribers;
    private readonly Lock _signal = new();
    private int _polling;
    private TaskCompletionSource _changed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _lastSeen = Environment.TickCount64;

    public LongPollSession(string id, TopicRegistry registry)
    {
        Id = id;
        _subscribers = new SessionSubscribers(registry, id);
    }

    public string Id { get; }

    /// <summary>Milliseconds since the client last asked for anything, 0 while a poll is waiting.</summary>
    public long IdleMilliseconds => Volatile.Read(ref _polling) == 1 ? 0 : Environment.TickCount64 - Interlocked.Read(ref _lastSeen);

    public void Touch() => Interlocked.Exchange(ref _lastSeen, Environment.TickCount64);

    public async Task<long> SubscribeAsync(string topic, long? after, CancellationToken cancellationToken)
    {
        Touch();
        var (_, lastSequence) = await _subscribers.SubscribeAsync(topic, after, cancellationToken);
        Changed();
        return lastSequence;
    }

    public void Unsubscribe(string topic)
    {
        Touch();
        _subscribers.Unsubscribe(topic);
        Changed();
    }

    /// <summary>Ends every subscription: the client closed the session, or it expired.</summary>
    public void Close()
    {
        _subscribers.Close();
        Changed();
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
                var (publications, ended, waitFor, changed) = Drain(maxBatch);
                if (publications.Count > 0 || ended.Count > 0 || timeout.IsCancellationRequested)
                {
                    return (publications, ended);
                }

                try
                {
                    await Task.WhenAny(waitFor.Select(reader => reader.WaitToReadAsync(timeout.Token).AsTask()).Append(changed)).WaitAsync(timeout.Token);
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

    // Also returns what the wait afterwards listens to: each remaining queue, and a signal of
    // subscriptions changing. The signal is renewed before the subscribers are read, so a change
    // after that point is never missed.
    private (List<Publication>, List<LongPollWire.EndedSubscription>, List<ChannelReader<Publication>>, Task Changed) Drain(int maxBatch)
    {
        Task changed;
        lock (_signal)
        {
            _changed = _changed.Task.IsCompleted ? new(TaskCreationOptions.RunContinuationsAsynchronously) : _changed;
            changed = _changed.Task;
        }

        List<Publication> publications = [];
        List<LongPollWire.EndedSubscription> ended = [];
        List<ChannelReader<Publication>> readers = [];
        foreach (var subscriber in _subscribers.Snapshot())
        {
            var reader = subscriber.Notifications;
            while (publications.Count < maxBatch && reader.TryRead(out var publication))
            {
                publications.Add(publication);
            }

            if (subscriber.EndReason is { } reason && !reader.TryPeek(out _))
            {
                // Dropped by the registry, and everything it queued before that is delivered.
                _subscribers.Forget(subscriber);
                ended.Add(new(subscriber.Topic, reason));
                continue;
            }

            readers.Add(reader);
        }

        return (publications, ended, readers, changed);
    }

    private void Changed()
    {
        lock (_signal)
        {
            _changed.TrySetResult();
        }
    }
}
