namespace RpcCompare.Push;

/// <summary>
/// The subscribers of one client session (a WCF duplex session, a long-poll session), one per
/// topic: safe to call from the session's concurrent requests, and ended together when the
/// session ends. A binding whose session is one read loop (pipes) needs no such guard.
/// </summary>
public sealed class SessionSubscribers
{
    private readonly Dictionary<string, PushSubscriber> _subscribers = new(StringComparer.Ordinal);
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

    /// <summary>Subscribes the session to a topic (<see cref="TopicRegistry.Subscribe(string, long?, out long)"/>).</summary>
    /// <exception cref="InvalidOperationException">The session already subscribes to the topic.</exception>
    /// <exception cref="ObjectDisposedException">The session has ended.</exception>
    public PushSubscriber Subscribe(string topic, long? after, out long lastSequence)
    {
        lock (_subscribers)
        {
            ObjectDisposedException.ThrowIf(_closed, this);
            if (_subscribers.ContainsKey(topic))
            {
                throw new InvalidOperationException($"Session {_session} already subscribes to '{topic}'.");
            }

            var subscriber = _registry.Subscribe(topic, after, out lastSequence);
            _subscribers.Add(topic, subscriber);
            return subscriber;
        }
    }

    /// <summary>Ends the session's subscription to a topic, if it has one.</summary>
    public void Unsubscribe(string topic)
    {
        PushSubscriber? subscriber;
        lock (_subscribers)
        {
            _subscribers.Remove(topic, out subscriber);
        }

        subscriber?.Dispose();
    }

    /// <summary>Ends this subscriber only: its topic may have been unsubscribed and subscribed again meanwhile.</summary>
    public void Forget(PushSubscriber subscriber)
    {
        ArgumentNullException.ThrowIfNull(subscriber);
        lock (_subscribers)
        {
            if (_subscribers.TryGetValue(subscriber.Topic, out var current) && ReferenceEquals(current, subscriber))
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
            return [.. _subscribers.Values];
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
            subscribers = [.. _subscribers.Values];
            _subscribers.Clear();
        }

        foreach (var subscriber in subscribers)
        {
            subscriber.Dispose();
        }

        return true;
    }
}
