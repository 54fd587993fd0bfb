using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Internal;

/// <summary>
/// One topic's subscribers and sequence counter. Publishing queues under the lock, so two
/// publications to one topic reach every subscriber in the same order; the subscriber array is
/// replaced, never changed, so a publication walks a stable snapshot.
/// </summary>
internal sealed class Topic
{
    private readonly Lock _lock = new();
    private PushSubscriber[] _subscribers = [];
    private long _sequence;
    private bool _removed;

    public Topic(string name)
    {
        Name = name;
    }

    public string Name { get; }

    public int Count => Volatile.Read(ref _subscribers).Length;

    /// <summary>False when the topic already emptied and left the registry.</summary>
    public bool TryAdd(PushSubscriber subscriber, out long lastSequence)
    {
        lock (_lock)
        {
            lastSequence = _sequence;
            if (_removed)
            {
                return false;
            }

            _subscribers = [.. _subscribers, subscriber];
            return true;
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

    public (long Sequence, int Queued, List<PushSubscriber> Full) Publish(Notification notification, int capacity, TopicRegistry registry)
    {
        List<PushSubscriber> full = [];
        var queued = 0;
        lock (_lock)
        {
            // A copy per publication: every subscriber's queue holds the same instance, and the caller's object stays the caller's.
            var publication = new Publication(new Notification
            {
                Topic = Name,
                Sequence = ++_sequence,
                SentTimestamp = notification.SentTimestamp,
                Publisher = notification.Publisher,
                Items = notification.Items,
            }, registry);
            foreach (var subscriber in _subscribers)
            {
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

            return (_sequence, queued, full);
        }
    }
}
