using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>A byte payload.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class BytesMessage
{
    [DataMember(Order = 1)]
    public byte[] Data { get; set; } = [];
}
