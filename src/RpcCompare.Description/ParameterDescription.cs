using System.Reflection;

namespace RpcCompare.Description;

/// <summary>How a parameter's value flows: in the request, in the reply, or both.</summary>
public enum ParameterDirection
{
    In,
    Out,
    Ref,
}

/// <summary>
/// One parameter of an operation. <see cref="Type"/> is the value's type (an <c>out int</c> is
/// <see cref="int"/>, not <c>Int32&amp;</c>); <see cref="PartName"/> is its SOAP body part name
/// ([MessageParameter(Name)], else the parameter's name).
/// </summary>
public sealed record ParameterDescription(
    string Name,
    string PartName,
    int Position,
    Type Type,
    ParameterDirection Direction,
    ParameterInfo Info)
{
    /// <summary>True when the value travels in the request (by value and ref).</summary>
    public bool IsInput => Direction != ParameterDirection.Out;

    /// <summary>True when the value travels back in the reply (out and ref).</summary>
    public bool IsOutput => Direction != ParameterDirection.In;

    public bool IsStream => typeof(Stream).IsAssignableFrom(Type);
}

/// <summary>An operation's return value: <see cref="Type"/> is the unwrapped T of Task&lt;T&gt; or ValueTask&lt;T&gt;.</summary>
public sealed record ReturnDescription(string PartName, Type Type)
{
    public bool IsStream => typeof(Stream).IsAssignableFrom(Type);
}

/// <summary>A declared [FaultContract]: the detail type and the names WCF gives its SOAP fault.</summary>
public sealed record FaultDescription(Type DetailType, string Name, string Namespace, string Action);
