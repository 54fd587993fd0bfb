using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>The small struct-like argument of the call-shapes measurement.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class PointMessage
{
    [DataMember(Order = 1)]
    public int X { get; set; }

    [DataMember(Order = 2)]
    public int Y { get; set; }

    [DataMember(Order = 3)]
    public int Z { get; set; }

    [DataMember(Order = 4)]
    public double Weight { get; set; }
}
