using System.ServiceModel;

namespace RpcCompare.Contracts.Push;

/// <summary>What the server calls on a duplex subscriber (<see cref="IPushDuplexService"/>).</summary>
[ServiceContract(Name = ServiceNames.PushCallback, Namespace = ServiceNames.Namespace)]
public interface IPushCallback
{
    /// <summary>
    /// One notification. One-way: the server does not wait for the subscriber, as the original
    /// measurement advises ("send asynchronously").
    /// </summary>
    [OperationContract(IsOneWay = true, Action = NotifyAction)]
    void Notify(Notification notification);

    /// <summary>The SOAP action of <see cref="Notify"/>: the server's pre-serialized sends address the same operation.</summary>
    public const string NotifyAction = ServiceNames.Namespace + ":PushCallback/Notify";
}
