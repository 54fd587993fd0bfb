namespace RpcCompare.Bindings.Push;

/// <summary>One topic subscribed through an <see cref="IPushClient"/>. Dispose it to unsubscribe.</summary>
public interface IPushSubscription : IAsyncDisposable
{
    string Topic { get; }

    /// <summary>
    /// Completes when the subscription ends: successfully after the subscriber unsubscribed, with a
    /// <see cref="PushSubscriptionEndedException"/> when the server or the connection ended it.
    /// </summary>
    Task Completion { get; }
}
