using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>Empty request of <see cref="IFileService.PingAsync"/>. A type of its own so the operation can grow without breaking the contract.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class PingRequest
{
}
