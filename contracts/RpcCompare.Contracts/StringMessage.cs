using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>A string payload.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class StringMessage
{
    [DataMember(Order = 1)]
    public string Text { get; set; } = "";
}
