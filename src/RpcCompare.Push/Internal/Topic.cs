using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Internal;

/// <summary>
/// One topic's subscribers and sequence counter. Queuing happens under the lock, so two
/// publications to one topic reach every subscriber in the same order; the subscriber array is
/// replaced, never changed, so a publication walks a stable snapshot.
/// </summary>
/// <remarks>
/// With a broker (<see cref="IPushBroker"/>) the broker numbers publications and the topic only
/// follows: its first subscriber asks the broker for the last number (<see cref="TryAdd"/>), a
/// resuming subscriber gets what it missed from the broker's log before it joins, and the feed hands
/// publications in through <see cref="Deliver"/>, which keeps them contiguous.
/// </remarks>
internal sealed class Topic
{
    private readonly Lock _lock = new();
    private readonly IPushBroker? _broker;
    private PushSubscriber[] _subscribers = [];
    private long _sequence;
    private bool _joined;
    private bool _removed;

    /// <param name="name">The topic's name.</param>
    /// <param name="broker">The broker that numbers publications, if any.</param>
    public Topic(string name, IPushBroker? broker)
    {
        Name = name;
        _broker = broker;
    }

    public string Name { get; }

    public int Count => Volatile.Read(ref _subscribers).Length;

    /// <summary>
    /// False when the topic already emptied and left the registry. With a broker, a subscriber resuming
    /// <paramref name="after"/> a number first gets the newest publications after it the log holds, at most
    /// <paramref name="replayLimit"/>, in its queue before anything live.
    /// </summary>
    /// <exception cref="Exception">The broker did not answer (the topic is then closed if empty).</exception>
    public bool TryAdd(PushSubscriber subscriber, long? after, int replayLimit, TopicRegistry registry, out long lastSequence)
    {
        lock (_lock)
        {
            lastSequence = _sequence;
            if (_removed)
            {
                return false;
            }

            if (_broker is not null)
            {
                try
                {
                    Join(_broker, subscriber, after, replayLimit, registry);
                }
                catch
                {
                    _removed = _subscribers.Length == 0;
                    throw;
                }

                lastSequence = Math.Max(_sequence, subscriber.Floor);
            }

            _subscribers = [.. _subscribers, subscriber];
            return true;
        }
    }

    // Under the lock, so the feed waits: whatever it holds for this topic was published before these
    // questions reached the broker, and is counted in the answers (Deliver drops it as old).
    private void Join(IPushBroker broker, PushSubscriber subscriber, long? after, int replayLimit, TopicRegistry registry)
    {
        if (!_joined)
        {
            _sequence = broker.LastSequence(Name);
            _joined = true;
        }

        if (after > _sequence)
        {
            // The subscriber saw more than this replica's feed has brought yet (it lags the host the subscriber
            // left): what comes up to that number it already has.
            subscriber.Floor = after.Value;
        }
        else if (after < _sequence)
        {
            // Its own queue, still empty and at most half filled: nothing here can overflow it.
            foreach (var missed in broker.ReadLatest(Name, after.Value, _sequence, replayLimit))
            {
                subscriber.TryEnqueue(new Publication(missed, registry));
            }
        }
    }

    /// <summary>The number of the last publication queued (or, before any, the last one the broker had given when the first subscriber came).</summary>
    public long Delivered
    {
        get
        {
            lock (_lock)
            {
                return _sequence;
            }
        }
    }

    /// <summary>True when the topic is empty and closed to new subscribers (it then leaves the registry).</summary>
    public bool IsRemoved
    {
        get
        {
            lock (_lock)
            {
                return _removed;
            }
        }
    }

    /// <summary>True when this removal emptied the topic (it is then closed to new subscribers).</summary>
    public bool Remove(PushSubscriber subscriber)
    {
        lock (_lock)
        {
            var index = Array.IndexOf(_subscribers, subscriber);
            if (index < 0)
            {
                return false;
            }

            _subscribers = [.. _subscribers.AsSpan(0, index), .. _subscribers.AsSpan(index + 1)];
            _removed = _subscribers.Length == 0;
            return _removed;
        }
    }

    /// <summary>Numbers a publication on this host (no broker) and queues it for every subscriber.</summary>
    public (long Sequence, int Queued, List<PushSubscriber> Full) Publish(Notification notification, int capacity, TopicRegistry registry)
    {
        lock (_lock)
        {
            // A copy per publication: every subscriber's queue holds the same instance, and the caller's object stays the caller's.
            var (queued, full) = FanOut(new Notification
            {
                Topic = Name,
                Sequence = ++_sequence,
                SentTimestamp = notification.SentTimestamp,
                Publisher = notification.Publisher,
                Items = notification.Items,
            }, capacity, registry);
            return (_sequence, queued, full);
        }
    }

    /// <summary>
    /// Queues a publication the broker numbered, if it is the next one. Older ones (counted in the
    /// first subscriber's answer, or seen before) are dropped; a later one is refused as a gap and
    /// its sequence's predecessor returned, unless <paramref name="acceptGap"/>: the caller read what
    /// it could of the gap from the broker's log, and the rest is gone.
    /// </summary>
    public (Delivery Outcome, long Expected, List<PushSubscriber> Full) Deliver(Notification notification, bool acceptGap, int capacity, TopicRegistry registry)
    {
        lock (_lock)
        {
            if (!_joined || _removed || notification.Sequence <= _sequence)
            {
                return (Delivery.Old, _sequence + 1, []);
            }

            if (notification.Sequence > _sequence + 1 && !acceptGap)
            {
                return (Delivery.Gap, _sequence + 1, []);
            }

            _sequence = notification.Sequence;
            var (_, full) = FanOut(notification, capacity, registry);
            return (Delivery.Queued, _sequence + 1, full);
        }
    }

    /// <summary>Ends every subscriber with <paramref name="reason"/> and closes the topic; how many there were.</summary>
    public int EndAll(string reason)
    {
        lock (_lock)
        {
            var subscribers = _subscribers;
            _subscribers = [];
            _removed = true;
            foreach (var subscriber in subscribers)
            {
                subscriber.End(reason);
            }

            return subscribers.Length;
        }
    }

    // Under the lock.
    private (int Queued, List<PushSubscriber> Full) FanOut(Notification notification, int capacity, TopicRegistry registry)
    {
        List<PushSubscriber> full = [];
        var queued = 0;
        var publication = new Publication(notification, registry);
        foreach (var subscriber in _subscribers)
        {
            if (notification.Sequence <= subscriber.Floor)
            {
                continue;
            }

            if (subscriber.TryEnqueue(publication))
            {
                queued++;
            }
            else if (!subscriber.IsEnded)
            {
                full.Add(subscriber);
            }

            // Else it is leaving (unsubscribed, or its connection closed) and not yet out of the
            // topic: not a subscriber the server dropped, so neither counted nor ended again.
        }

        foreach (var subscriber in full)
        {
            subscriber.End($"Disconnected by the server: {capacity} notifications were waiting unread on topic '{Name}' (Push:QueueCapacity); a subscriber that falls this far behind is dropped so it cannot delay the others.");
        }

        return (queued, full);
    }
}

/// <summary>What <see cref="Topic.Deliver"/> did with a publication from the broker.</summary>
internal enum Delivery
{
    /// <summary>Queued for every subscriber.</summary>
    Queued,

    /// <summary>Already delivered or counted, or the topic has no subscriber here: dropped.</summary>
    Old,

    /// <summary>Publications before it are missing: not queued.</summary>
    Gap,
}
