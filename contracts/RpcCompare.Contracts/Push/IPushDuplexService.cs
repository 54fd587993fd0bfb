using System.ServiceModel;

namespace RpcCompare.Contracts.Push;

/// <summary>
/// Publish/subscribe in the duplex shape (CoreWCF NetTcp and Unix domain sockets): the session
/// subscribes, and the server calls <see cref="IPushCallback"/> on the same connection for each
/// notification. One session may subscribe to several topics; closing it unsubscribes from all.
/// </summary>
[ServiceContract(Name = ServiceNames.PushDuplexService, Namespace = ServiceNames.Namespace, CallbackContract = typeof(IPushCallback), SessionMode = SessionMode.Required)]
public interface IPushDuplexService
{
    /// <summary>Subscribes this session to a topic; returns once any later publication will reach it.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<SubscribeReply> SubscribeAsync(SubscribeRequest request);

    /// <summary>Ends this session's subscription to a topic; nothing of it arrives after the reply.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<SubscribeReply> UnsubscribeAsync(SubscribeRequest request);

    /// <summary>Publishes to every current subscriber of the notification's topic, over every binding.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<PublishReply> PublishAsync(Notification notification);
}
