using System.ComponentModel;
using System.Diagnostics.CodeAnalysis;

namespace RpcCompare.Bindings.Fast.Generated;

/// <summary>
/// Written by the generator beside its code: <see cref="Generated"/> is the fast binding's code for
/// <see cref="Contract"/>. The binding finds it here (a typeof, no module initializer; its constructor kept for the trimmer).
/// </summary>
[AttributeUsage(AttributeTargets.Assembly, AllowMultiple = true)]
[EditorBrowsable(EditorBrowsableState.Never)]
public sealed class GeneratedFastContractAttribute(Type contract, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicParameterlessConstructor)] Type generated) : Attribute
{
    public Type Contract { get; } = contract;

    [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicParameterlessConstructor)]
    public Type Generated { get; } = generated;
}
