using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>An array of 32-bit records.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class RecordsMessage
{
    [DataMember(Order = 1)]
    public Rgba32[] Records { get; set; } = [];
}
