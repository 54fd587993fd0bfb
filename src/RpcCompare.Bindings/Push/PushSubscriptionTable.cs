using System.Collections.Concurrent;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Bindings.Push;

/// <summary>
/// The subscriptions of one push connection, one per topic: routes what the connection receives
/// to its topic and ends them all together when the connection ends.
/// </summary>
public sealed class PushSubscriptionTable
{
    private readonly ConcurrentDictionary<string, RoutedPushSubscription> _subscriptions = new(StringComparer.Ordinal);

    /// <summary>
    /// Registers a subscription before the server is asked for it: the server may push the first
    /// notification ahead of its reply. Remove it again if the server refuses.
    /// </summary>
    /// <exception cref="InvalidOperationException">The connection already subscribes to the topic.</exception>
    public RoutedPushSubscription Add(string topic, Action<Notification> onNotification, Func<RoutedPushSubscription, Task> unsubscribe)
    {
        ArgumentNullException.ThrowIfNull(topic);
        ArgumentNullException.ThrowIfNull(onNotification);
        var subscription = new RoutedPushSubscription(topic, onNotification, unsubscribe);
        return _subscriptions.TryAdd(topic, subscription)
            ? subscription
            : throw new InvalidOperationException($"This client already subscribes to '{topic}'; one subscription per topic and connection.");
    }

    public bool Contains(RoutedPushSubscription subscription) =>
        _subscriptions.TryGetValue(subscription.Topic, out var current) && ReferenceEquals(current, subscription);

    /// <summary>Forgets a subscription (refused, or unsubscribed on the server) and completes it successfully.</summary>
    public void Remove(RoutedPushSubscription subscription)
    {
        ArgumentNullException.ThrowIfNull(subscription);
        _subscriptions.TryRemove(new KeyValuePair<string, RoutedPushSubscription>(subscription.Topic, subscription));
        subscription.Unsubscribed();
    }

    /// <summary>Routes a notification to its topic's subscriber; one for a topic no longer subscribed is dropped.</summary>
    public void Deliver(Notification notification)
    {
        ArgumentNullException.ThrowIfNull(notification);
        if (_subscriptions.TryGetValue(notification.Topic, out var subscription))
        {
            subscription.Deliver(notification);
        }
    }

    /// <summary>The server ended one topic's subscription.</summary>
    public void End(string topic, string reason)
    {
        if (_subscriptions.TryRemove(topic, out var subscription))
        {
            subscription.Ended(reason, null);
        }
    }

    /// <summary>
    /// The connection ended: every subscription completes, successfully when the client closed it
    /// (<paramref name="reason"/> null), otherwise failing with the reason.
    /// </summary>
    public void EndAll(string? reason, Exception? cause)
    {
        foreach (var topic in _subscriptions.Keys)
        {
            if (_subscriptions.TryRemove(topic, out var subscription))
            {
                if (reason is null)
                {
                    subscription.Unsubscribed();
                }
                else
                {
                    subscription.Ended(reason, cause);
                }
            }
        }
    }
}
