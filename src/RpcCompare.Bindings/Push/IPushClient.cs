using RpcCompare.Contracts.Push;

namespace RpcCompare.Bindings.Push;

/// <summary>
/// Publish and subscribe over one binding, whatever its shape underneath (a gRPC stream, WCF
/// callbacks, long polls, push frames). Disposing it ends its subscriptions and its connection.
/// </summary>
public interface IPushClient : IAsyncDisposable
{
    /// <summary>
    /// Subscribes to <paramref name="topic"/>; returns once the server registered the subscription,
    /// so any publication accepted afterwards arrives. <paramref name="onNotification"/> runs for
    /// each notification, in order, on the binding's receive path: keep it short. To resume after a
    /// lost connection, pass the last sequence number received as <paramref name="after"/>
    /// (<see cref="SubscribeRequest.After"/>: hosts sharing topics through a broker send what the topic's log holds after it first).
    /// </summary>
    /// <exception cref="Contracts.RpcServiceException">The server refused the topic.</exception>
    Task<IPushSubscription> SubscribeAsync(string topic, Action<Notification> onNotification, long? after = null, CancellationToken cancellationToken = default);

    /// <summary>Publishes to every subscriber of <c>notification.Topic</c>, on every binding the host serves.</summary>
    Task<PublishReply> PublishAsync(Notification notification, CancellationToken cancellationToken = default);
}
