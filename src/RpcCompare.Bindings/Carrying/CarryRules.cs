using System.Collections.Concurrent;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Carrying;

/// <summary>
/// What one binding carries, decided from the contract model. The binding's server runs the
/// check for every contract the host registered before it listens; its client provider runs the
/// same check before it returns a proxy, so both sides refuse the same shapes with the same words.
/// </summary>
public abstract class CarryRules
{
    /// <summary>Rules that carry every contract that loads (in-process calls, for one).</summary>
    public static CarryRules Everything { get; } = new EverythingRules();

    // A contract's shapes never change at run time: each (binding, contract) is checked once, not on
    // every proxy a client factory makes.
    private readonly ConcurrentDictionary<(string Binding, Type Contract), IReadOnlyList<CarryRefusal>> _checked = new();

    /// <summary>Why <paramref name="binding"/> cannot carry <paramref name="contract"/>; empty when it can.</summary>
    public IReadOnlyList<CarryRefusal> Check(string binding, Type contract)
    {
        ArgumentNullException.ThrowIfNull(contract);
        return _checked.GetOrAdd((binding, contract), static (key, rules) => rules.Refusals(key.Binding, key.Contract), this);
    }

    private IReadOnlyList<CarryRefusal> Refusals(string binding, Type contract)
    {
        ServiceContractDescription description;
        try
        {
            description = ContractLoader.Load(contract);
        }
        catch (ContractLoadException e)
        {
            return [new CarryRefusal(binding, contract.Name, null, $"it does not load as a service contract: {e.Reason}")];
        }

        var label = CarryRefusal.LabelOf(description);
        return
        [
            .. RefuseContract(description).Select(reason => new CarryRefusal(binding, label, null, reason)),
            .. description.Operations.SelectMany(operation =>
                RefuseOperation(description, operation).Select(reason => new CarryRefusal(binding, label, operation.Name, reason))),
        ];
    }

    /// <summary>Every refusal for every contract, in registration then operation order; throws when there is any.</summary>
    public void ThrowUnlessCarried(string binding, IEnumerable<Type> contracts)
    {
        ArgumentNullException.ThrowIfNull(contracts);
        var refusals = contracts.SelectMany(contract => Check(binding, contract)).ToArray();
        if (refusals.Length > 0)
        {
            throw new ContractNotCarriedException(refusals);
        }
    }

    /// <summary>Reasons the contract as a whole is not carried (a callback channel, sessions).</summary>
    protected virtual IEnumerable<string> RefuseContract(ServiceContractDescription contract) => [];

    /// <summary>Reasons one operation is not carried.</summary>
    protected virtual IEnumerable<string> RefuseOperation(ServiceContractDescription contract, OperationDescription operation) => [];

    private sealed class EverythingRules : CarryRules;
}
