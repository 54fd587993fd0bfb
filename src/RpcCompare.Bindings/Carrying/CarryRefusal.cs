using RpcCompare.Description;

namespace RpcCompare.Bindings.Carrying;

/// <summary>
/// One shape a binding cannot carry: the binding, the contract (its WCF name, with the interface
/// in parentheses when that differs), the operation (null for the contract as a whole) and why.
/// </summary>
public sealed record CarryRefusal(string Binding, string Contract, string? Operation, string Reason)
{
    /// <summary>A refusal of <paramref name="contract"/> as a whole, named as every refusal names it.</summary>
    public static CarryRefusal OfContract(string binding, Type contract, string reason)
    {
        ArgumentNullException.ThrowIfNull(contract);
        return new(binding, LabelOf(contract), null, reason);
    }

    /// <summary>The contract's WCF name, with its interface in parentheses when they differ; the type's name when it is no contract.</summary>
    internal static string LabelOf(Type contract)
    {
        try
        {
            return LabelOf(ContractLoader.Load(contract));
        }
        catch (ContractLoadException)
        {
            return contract.Name;
        }
    }

    internal static string LabelOf(ServiceContractDescription description) =>
        description.Name == description.ContractType.Name ? description.Name : $"{description.Name} ({description.ContractType.Name})";

    public override string ToString() => Operation is null
        ? $"binding {Binding} cannot carry contract {Contract}: {Reason}"
        : $"binding {Binding} cannot carry operation {Operation} of contract {Contract}: {Reason}";
}
