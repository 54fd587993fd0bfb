using System.ServiceModel;
using RpcCompare.Bindings.Push;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Bindings.Wcf.Push;

/// <summary>
/// The client's callback object: routes each notification to its topic's subscriber. One call at
/// a time (ConcurrencyMode.Single) keeps each topic's notifications in order; no synchronization
/// context, so callbacks never queue behind a UI or test thread.
/// </summary>
[CallbackBehavior(UseSynchronizationContext = false, ConcurrencyMode = ConcurrencyMode.Single)]
internal sealed class WcfPushCallback : IPushCallback
{
    private readonly PushSubscriptionTable _subscriptions;

    public WcfPushCallback(PushSubscriptionTable subscriptions)
    {
        _subscriptions = subscriptions;
    }

    public Task NotifyAsync(Notification notification)
    {
        _subscriptions.Deliver(notification);
        return Task.CompletedTask;
    }
}
