using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>An int argument or result, wrapped because message-based bindings carry messages, not scalars.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class IntMessage
{
    [DataMember(Order = 1)]
    public int Value { get; set; }
}
