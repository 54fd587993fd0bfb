using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>
/// The detail of a refusal as it crosses a WCF binding (FaultException&lt;RpcFault&gt;): the same
/// code and message as the <see cref="RpcServiceException"/> the service threw.
/// </summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class RpcFault
{
    [DataMember(Order = 1)]
    public RpcErrorCode Code { get; set; }

    [DataMember(Order = 2)]
    public string Message { get; set; } = "";
}
