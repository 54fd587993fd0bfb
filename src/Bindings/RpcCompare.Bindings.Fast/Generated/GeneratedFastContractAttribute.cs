using System.ComponentModel;

namespace RpcCompare.Bindings.Fast.Generated;

/// <summary>
/// Written by the generator beside its code: <see cref="Generated"/> is the fast binding's code for
/// <see cref="Contract"/>. The binding finds it here (a typeof, no module initializer: trim-safe).
/// </summary>
[AttributeUsage(AttributeTargets.Assembly, AllowMultiple = true)]
[EditorBrowsable(EditorBrowsableState.Never)]
public sealed class GeneratedFastContractAttribute(Type contract, Type generated) : Attribute
{
    public Type Contract { get; } = contract;

    public Type Generated { get; } = generated;
}
