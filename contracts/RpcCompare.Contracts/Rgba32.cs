using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>A 32-bit struct-like record: four byte-sized fields.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class Rgba32
{
    [DataMember(Order = 1)]
    public byte R { get; set; }

    [DataMember(Order = 2)]
    public byte G { get; set; }

    [DataMember(Order = 3)]
    public byte B { get; set; }

    [DataMember(Order = 4)]
    public byte A { get; set; }
}
