using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Internal;

/// <summary>
/// One topic's subscribers and sequence counter. Queuing happens under the lock, so two
/// publications to one topic reach every subscriber in the same order; the subscriber array is
/// replaced, never changed, so a publication walks a stable snapshot.
/// </summary>
/// <remarks>
/// With a broker (<see cref="IPushBroker"/>) the broker numbers publications and the topic only
/// follows: its first subscriber asks the broker for the last number (the join, shared by every
/// subscriber that comes while it is asked), a resuming subscriber gets what it missed from the
/// broker's log before anything live, and the feed hands publications in through
/// <see cref="Deliver"/>, which keeps them contiguous. No question to the broker is asked under the
/// lock or on a blocked thread: hundreds of first subscribers at once used to hold the thread pool
/// the broker's client reads its answers on, and were refused when the answers came too late.
/// </remarks>
internal sealed partial class Topic
{
    private readonly Lock _lock = new();
    private readonly IPushBroker? _broker;
    private readonly List<Resume> _resuming = [];
    private PushSubscriber[] _subscribers = [];
    private long _sequence;
    private bool _joined;
    private bool _removed;

    // While the join is asked: the task every joining subscriber awaits, and the numbers the feed brought
    // meanwhile (the newest, a queue's worth), counted in once the answer is known.
    private Task? _join;
    private Queue<long>? _arrivedWhileJoining;

    // Subscribers between the start of TryAddAsync and their registration: the topic stays open for them.
    private int _entering;

    /// <param name="name">The topic's name.</param>
    /// <param name="broker">The broker that numbers publications, if any.</param>
    public Topic(string name, IPushBroker? broker)
    {
        Name = name;
        _broker = broker;
    }

    public string Name { get; }

    public int Count => Volatile.Read(ref _subscribers).Length;

    /// <summary>The subscribers now (a snapshot: the array is replaced, never changed).</summary>
    public IReadOnlyList<PushSubscriber> Subscribers => Volatile.Read(ref _subscribers);

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

    /// <summary>The join being asked, if it is (null before the first subscriber, and once answered).</summary>
    public Task? Joining
    {
        get
        {
            lock (_lock)
            {
                return _join;
            }
        }
    }

    /// <summary>True once the broker told the first subscriber's number (always, without a broker).</summary>
    public bool IsJoined
    {
        get
        {
            lock (_lock)
            {
                return _joined || _broker is null;
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
            // Not while another subscriber is on its way in: it would join a closed topic.
            _removed = _subscribers.Length == 0 && _entering == 0;
            return _removed;
        }
    }

    /// <summary>
    /// Numbers a publication on this host (no broker) and queues it for every subscriber, carrying
    /// <paramref name="trace"/> (<see cref="NotificationTrace.ForPublication"/>).
    /// </summary>
    public (long Sequence, int Queued, List<PushSubscriber> Full) Publish(Notification notification, (string? Parent, string? State) trace, int capacity, TopicRegistry registry)
    {
        lock (_lock)
        {
            // A copy per publication: every subscriber's queue holds the same instance, and the caller's object stays the caller's.
            var numbered = NotificationTrace.Copy(notification, trace.Parent, trace.State);
            numbered.Sequence = ++_sequence;
            var (queued, full) = FanOut(numbered, capacity, registry);
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
            if (!_joined)
            {
                if (_arrivedWhileJoining is { } arrived)
                {
                    if (arrived.Count == capacity)
                    {
                        // The oldest go first: a backlogged feed may still be bringing numbers the answer counts.
                        arrived.Dequeue();
                    }

                    arrived.Enqueue(notification.Sequence);
                }

                return (Delivery.Old, _sequence + 1, []);
            }

            if (_removed || notification.Sequence <= _sequence)
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
        var span = PushTelemetry.StartDelivery(notification);
        (int Queued, List<PushSubscriber> Full) done = default;
        try
        {
            done = QueueForAll(notification, capacity, registry);
            return done;
        }
        finally
        {
            // Also if queuing failed: the span does not stay open as the thread's current one.
            PushTelemetry.EndDelivery(span, done.Queued);
        }
    }

    // Under the lock.
    private (int Queued, List<PushSubscriber> Full) QueueForAll(Notification notification, int capacity, TopicRegistry registry)
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

        foreach (var resume in _resuming)
        {
            if (resume.Subscriber.IsEnded)
            {
                continue;
            }

            if (resume.Held.Count < resume.Room)
            {
                resume.Held.Add(publication);
            }
            else
            {
                // More came while it resumed than its queue could hold after the log's part: as if its queue were full.
                full.Add(resume.Subscriber);
            }
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
