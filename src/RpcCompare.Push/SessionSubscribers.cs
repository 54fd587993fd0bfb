namespace RpcCompare.Push;

/// <summary>
/// The subscribers of one client session (a WCF duplex session, a long-poll session), one per
/// topic: safe to call from the session's concurrent requests, and ended together when the
/// session ends. A binding whose session is one read loop (pipes) needs no such guard.
/// </summary>
public sealed class SessionSubscribers
{
    // A slot per subscription, its subscriber null while the registry asks the broker: one call's own, so a
    // subscription answered after the client unsubscribed (and perhaps subscribed again) cannot take a newer slot.
    private readonly Dictionary<string, Slot> _subscribers = new(StringComparer.Ordinal);
    private readonly TopicRegistry _registry;
    private readonly string _session;
    private bool _closed;

    /// <param name="registry">The host's topics.</param>
    /// <param name="session">Names the session in errors.</param>
    public SessionSubscribers(TopicRegistry registry, string session)
    {
        _registry = registry;
        _session = session;
    }

    public bool IsClosed
    {
        get
        {
            lock (_subscribers)
            {
                return _closed;
            }
        }
    }

    /// <summary>Subscribes the session to a topic (<see cref="TopicRegistry.SubscribeAsync"/>).</summary>
    /// <exception cref="InvalidOperationException">The session already subscribes to the topic, or is subscribing to it.</exception>
    /// <exception cref="ObjectDisposedException">The session has ended.</exception>
    public async ValueTask<(PushSubscriber Subscriber, long LastSequence)> SubscribeAsync(string topic, long? after, CancellationToken cancellationToken = default)
    {
        var slot = new Slot();
        lock (_subscribers)
        {
            ObjectDisposedException.ThrowIf(_closed, this);
            if (!_subscribers.TryAdd(topic, slot))
            {
                throw new InvalidOperationException($"Session {_session} already subscribes to '{topic}'.");
            }
        }

        // Outside the lock, while the registry may ask the broker: the session's other requests go on.
        (PushSubscriber Subscriber, long LastSequence) subscription;
        try
        {
            subscription = await _registry.SubscribeAsync(topic, after, cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            lock (_subscribers)
            {
                if (_subscribers.TryGetValue(topic, out var current) && ReferenceEquals(current, slot))
                {
                    _subscribers.Remove(topic);
                }
            }

            throw;
        }

        bool closed;
        lock (_subscribers)
        {
            closed = _closed;
            if (!closed && _subscribers.TryGetValue(topic, out var current) && ReferenceEquals(current, slot))
            {
                slot.Subscriber = subscription.Subscriber;
                return subscription;
            }
        }

        // The session ended, or the client unsubscribed the topic before its subscription was answered: it ends at once.
        subscription.Subscriber.Dispose();
        ObjectDisposedException.ThrowIf(closed, this);
        return subscription;
    }

    /// <summary>Ends the session's subscription to a topic, if it has one.</summary>
    public void Unsubscribe(string topic)
    {
        Slot? slot;
        lock (_subscribers)
        {
            _subscribers.Remove(topic, out slot);
        }

        // A slot still being subscribed has no subscriber yet: it ends as soon as the registry answers.
        slot?.Subscriber?.Dispose();
    }

    /// <summary>Ends this subscriber only: its topic may have been unsubscribed and subscribed again meanwhile.</summary>
    public void Forget(PushSubscriber subscriber)
    {
        ArgumentNullException.ThrowIfNull(subscriber);
        lock (_subscribers)
        {
            if (_subscribers.TryGetValue(subscriber.Topic, out var current) && ReferenceEquals(current.Subscriber, subscriber))
            {
                _subscribers.Remove(subscriber.Topic);
            }
        }

        subscriber.Dispose();
    }

    /// <summary>The subscribers now, to read from outside the lock.</summary>
    public IReadOnlyList<PushSubscriber> Snapshot()
    {
        lock (_subscribers)
        {
            return [.. _subscribers.Values.Select(static s => s.Subscriber).OfType<PushSubscriber>()];
        }
    }

    /// <summary>Ends every subscription, once; false when the session had already ended.</summary>
    public bool Close()
    {
        List<PushSubscriber> subscribers;
        lock (_subscribers)
        {
            if (_closed)
            {
                return false;
            }

            _closed = true;
            subscribers = [.. _subscribers.Values.Select(static s => s.Subscriber).OfType<PushSubscriber>()];
            _subscribers.Clear();
        }

        foreach (var subscriber in subscribers)
        {
            subscriber.Dispose();
        }

        return true;
    }

    private sealed class Slot
    {
        public PushSubscriber? Subscriber { get; set; }
    }
}
