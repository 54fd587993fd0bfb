namespace RpcCompare.Bindings.Fast;

/// <summary>
/// Asks RpcCompare.Fast.Generator for the fast binding's code for each listed contract: put it on a
/// partial class in a project that references the binding and the generator
/// (<c>OutputItemType="Analyzer"</c>). The binding then serves and calls those contracts without
/// reflection on the hot path; a contract with no generated code is served through reflection, and
/// the host says so once at start-up.
/// </summary>
[AttributeUsage(AttributeTargets.Class, AllowMultiple = true)]
public sealed class FastContractsAttribute(params Type[] contracts) : Attribute
{
    public IReadOnlyList<Type> Contracts { get; } = contracts;
}
