using System.ServiceModel;

namespace RpcCompare.Contracts.Push;

/// <summary>What the server calls on a duplex subscriber (<see cref="IPushDuplexService"/>).</summary>
[ServiceContract(Name = ServiceNames.PushCallback, Namespace = ServiceNames.Namespace)]
public interface IPushCallback
{
    /// <summary>The SOAP action of <see cref="NotifyAsync"/>: the server's pre-serialized sends address the same operation.</summary>
    public const string NotifyAction = ServiceNames.Namespace + ":PushCallback/Notify";

    /// <summary>The operation's name on the wire, and so the element wrapping its body.</summary>
    public const string NotifyOperation = "Notify";

    /// <summary>The parameter's element inside the wrapper.</summary>
    public const string NotifyParameter = "notification";

    /// <summary>
    /// One notification. One-way, so the server does not wait for the subscriber ("send
    /// asynchronously", as the original measurement advises); a Task so a server sending to
    /// thousands blocks no thread per send.
    /// </summary>
    [OperationContract(IsOneWay = true, Action = NotifyAction, Name = NotifyOperation)]
    Task NotifyAsync(Notification notification);
}
