using RpcCompare.Contracts.Push;

namespace RpcCompare.Bindings.Push;

/// <summary>
/// One topic of a push client whose notifications all arrive on one connection (pipes frames,
/// WCF callbacks, long polls): the connection's receive path routes each notification here
/// through a <see cref="PushSubscriptionTable"/>.
/// </summary>
public sealed class RoutedPushSubscription : IPushSubscription
{
    private readonly Action<Notification> _onNotification;
    private readonly Func<RoutedPushSubscription, Task> _unsubscribe;
    private readonly TaskCompletionSource _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

    internal RoutedPushSubscription(string topic, Action<Notification> onNotification, Func<RoutedPushSubscription, Task> unsubscribe)
    {
        Topic = topic;
        _onNotification = onNotification;
        _unsubscribe = unsubscribe;
    }

    public string Topic { get; }

    public Task Completion => _completion.Task;

    public bool IsEnded => _completion.Task.IsCompleted;

    public ValueTask DisposeAsync() => IsEnded ? ValueTask.CompletedTask : new(_unsubscribe(this));

    /// <summary>Hands a notification to the subscriber, unless the subscription has ended.</summary>
    public void Deliver(Notification notification)
    {
        if (!IsEnded)
        {
            _onNotification(notification);
        }
    }

    /// <summary>The subscriber left: <see cref="Completion"/> succeeds.</summary>
    public void Unsubscribed() => _completion.TrySetResult();

    /// <summary>The server or the connection ended it: <see cref="Completion"/> fails with a <see cref="PushSubscriptionEndedException"/>.</summary>
    public void Ended(string reason, Exception? cause) =>
        _completion.TrySetException(cause is null ? new PushSubscriptionEndedException(reason) : new PushSubscriptionEndedException(reason, cause));
}
