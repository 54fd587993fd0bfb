using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>How much of a payload arrived.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class LengthReply
{
    [DataMember(Order = 1)]
    public long Length { get; set; }
}
