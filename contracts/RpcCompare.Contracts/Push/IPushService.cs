using System.ServiceModel;

namespace RpcCompare.Contracts.Push;

/// <summary>
/// Publish/subscribe in the streaming shape (gRPC server streaming through protobuf-net.Grpc):
/// a subscription is one long-lived call whose replies are the topic's notifications.
/// </summary>
/// <remarks>
/// The WCF bindings serve the same registry through <see cref="IPushDuplexService"/>: CoreWCF has
/// no streaming replies, gRPC has no callbacks, so the two frameworks need two shapes.
/// </remarks>
[ServiceContract(Name = ServiceNames.PushService, Namespace = ServiceNames.Namespace)]
public interface IPushService
{
    /// <summary>
    /// Subscribes to a topic for as long as the call lasts; cancel it to unsubscribe. The first
    /// notification (<see cref="Notification.Sequence"/> 0) confirms the subscription is registered:
    /// every publication accepted after it arrives, in order. The stream ends with an error when
    /// the server disconnects a subscriber that fell too far behind.
    /// </summary>
    [OperationContract]
    IAsyncEnumerable<Notification> SubscribeAsync(SubscribeRequest request, CancellationToken cancellationToken = default);

    /// <summary>Publishes to every current subscriber of the notification's topic.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<PublishReply> PublishAsync(Notification notification);
}
