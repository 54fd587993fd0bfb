using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>Empty reply of <see cref="IFileService.PingAsync"/>.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class PingReply
{
}
