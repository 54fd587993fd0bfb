using RpcCompare.Bindings.Carrying;
using RpcCompare.Runner.Measurement;
using RpcCompare.Runner.Reporting;
using RpcCompare.Runner.Suites;

namespace RpcCompare.Runner.Contracts;

/// <summary>
/// A team's own contracts (<c>--contracts</c>): each call of each workload over every binding
/// that carries its contract, served by a host of their own (<see cref="ContractsHost"/>) and, for
/// inproc, by the implementations in the runner's process.
/// </summary>
internal sealed class ContractsSuite : ISuite
{
    public const string SuiteName = "contracts";

    private readonly List<RefusedCell> _refused = [];

    public ContractsSuite(ContractWorkloads workloads)
    {
        Source = workloads;
    }

    public ContractWorkloads Source { get; }

    public string Name => SuiteName;

    public string Description => $"Your contracts from {Source.Assembly.Name}: each workload call over every binding that carries its contract.";

    /// <summary>
    /// The bindings the contracts host left out, each with why (<see cref="ContractsHost.Plan"/>);
    /// set before <see cref="Workloads"/> is asked.
    /// </summary>
    public IReadOnlyDictionary<string, ILookup<Type, CarryRefusal>> LeftOut { get; set; } = new Dictionary<string, ILookup<Type, CarryRefusal>>();

    /// <summary>The cells no figure can be measured for: their binding does not carry their contract. Known once <see cref="Workloads"/> has run.</summary>
    public IReadOnlyList<RefusedCell> Refused => _refused;

    public IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets)
    {
        _refused.Clear();
        var workloads = new List<Workload>();
        foreach (var contract in Source.Contracts)
        {
            foreach (var call in contract.Calls)
            {
                var operation = $"{contract.Contract.Name}.{call.Name}";
                foreach (var (binding, refusals) in LeftOut)
                {
                    _refused.Add(new RefusedCell(Name, operation, binding, null, Reason(contract.Contract, binding, refusals), NotCarried: true));
                }

                workloads.AddRange(targets.Select(target => new Workload(Name, operation, target, null, 0, call.CreateCall)));
            }
        }

        return workloads;
    }

    // The contract's own refusals; a contract the binding would carry was left out with the others.
    private static string Reason(Type contract, string binding, ILookup<Type, CarryRefusal> refusals) => refusals.Contains(contract)
        ? string.Join("; ", refusals[contract])
        : $"{binding} carries it, but the contracts host leaves {binding} out for the assembly's other contracts: {string.Join("; ", refusals.SelectMany(r => r))}";
}
