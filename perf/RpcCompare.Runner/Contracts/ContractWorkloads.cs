using System.Reflection;
using RpcCompare.Bindings;
using RpcCompare.Bindings.ContractAssemblies;
using RpcCompare.Client;
using RpcCompare.Workloads;

namespace RpcCompare.Runner.Contracts;

/// <summary>
/// The calls a team's assembly asks the runner to measure: every public
/// <see cref="IRpcWorkload{TContract}"/> in it, read once, for the contracts the assembly serves.
/// </summary>
internal sealed class ContractWorkloads
{
    private static readonly MethodInfo s_read = typeof(ContractWorkloads).GetMethod(nameof(Read), BindingFlags.NonPublic | BindingFlags.Static)!;

    private ContractWorkloads(ContractAssembly assembly, IReadOnlyList<ContractCalls> contracts, IReadOnlyList<string> notMeasured)
    {
        Assembly = assembly;
        Contracts = contracts;
        NotMeasured = notMeasured;
    }

    public ContractAssembly Assembly { get; }

    /// <summary>Each served contract that has a workload, with its calls in the workload's order.</summary>
    public IReadOnlyList<ContractCalls> Contracts { get; }

    /// <summary>Operations and contracts no workload call reaches, in words, for the console.</summary>
    public IReadOnlyList<string> NotMeasured { get; }

    /// <summary>Reads the workloads of the assembly at <paramref name="path"/>. Throws <see cref="ContractAssemblyException"/> with what to write when there is none.</summary>
    public static ContractWorkloads Load(string path)
    {
        var assembly = ContractAssembly.Load(path);
        var served = assembly.Services.ToDictionary(s => s.Contract);
        var contracts = new List<ContractCalls>();
        foreach (var type in assembly.Assembly.GetExportedTypes().Where(t => t is { IsClass: true, IsAbstract: false, ContainsGenericParameters: false }).OrderBy(t => t.FullName, StringComparer.Ordinal))
        {
            foreach (var contract in WorkloadContracts(type))
            {
                if (!served.ContainsKey(contract))
                {
                    throw new ContractAssemblyException(assembly.Path, $"{type.FullName} is a workload of {contract.FullName}, which the assembly does not serve (no [ServiceContract], or no implementation beside it).");
                }

                if (contracts.FirstOrDefault(c => c.Contract == contract) is { } other)
                {
                    throw new ContractAssemblyException(assembly.Path, $"{contract.FullName} has two workloads, {other.Workload.FullName} and {type.FullName}; put its calls in one.");
                }

                contracts.Add(Describe(assembly, type, contract));
            }
        }

        if (contracts.Count == 0)
        {
            throw new ContractAssemblyException(assembly.Path,
                $"it has no workload: add a public class implementing {typeof(IRpcWorkload<>).FullName!.Split('`')[0]}<TContract> for each contract to measure " +
                $"({string.Join(", ", assembly.Services.Select(s => s.Contract.Name))}); docs/your-contracts.md shows one.");
        }

        // Rows in the order the assembly's contracts are served (by full name), whatever the workloads' names.
        contracts = [.. contracts.OrderBy(c => c.Contract.FullName, StringComparer.Ordinal)];
        return new ContractWorkloads(assembly, contracts, [.. NotReached(assembly.Services, contracts)]);
    }

    private static IEnumerable<Type> WorkloadContracts(Type type) => type.GetInterfaces()
        .Where(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(IRpcWorkload<>))
        .Select(i => i.GetGenericArguments()[0]);

    private static ContractCalls Describe(ContractAssembly assembly, Type workload, Type contract)
    {
        if (workload.GetConstructor(Type.EmptyTypes) is null)
        {
            throw new ContractAssemblyException(assembly.Path, $"the workload {workload.FullName} needs a public parameterless constructor: the runner creates it.");
        }

        try
        {
            var calls = (IReadOnlyList<ContractCall>)s_read.MakeGenericMethod(contract).Invoke(null, [Activator.CreateInstance(workload)])!;
            if (calls.Count == 0)
            {
                throw new ContractAssemblyException(assembly.Path, $"the workload {workload.FullName} adds no call.");
            }

            return new ContractCalls(contract, workload, calls);
        }
        catch (TargetInvocationException exception) when (exception.InnerException is { } inner)
        {
            throw new ContractAssemblyException(assembly.Path, $"the workload {workload.FullName} failed while describing its calls: {inner.Message}", inner);
        }
    }

    // One generic step, so each call's delegate is typed: no reflection once the loop runs.
    private static IReadOnlyList<ContractCall> Read<TContract>(object workload)
        where TContract : class
    {
        var calls = new RpcWorkloadCalls<TContract>();
        ((IRpcWorkload<TContract>)workload).Describe(calls);
        return [.. calls.Calls.Select(call => new ContractCall(call.Name, session =>
        {
            var proxy = session.Get<TContract>();
            return () => call.Invoke(proxy);
        }))];
    }

    // Row names are free text (one operation may have several rows), so which operation a call
    // makes is not known; by the convention the docs give, a row is named by its operation, alone or
    // followed by a space and what sets the row apart ("PlaceOrder 100 lines"). An operation no row
    // names that way is reported as not reached.
    private static IEnumerable<string> NotReached(IReadOnlyList<RpcServiceDescriptor> served, List<ContractCalls> contracts)
    {
        foreach (var service in served)
        {
            if (contracts.FirstOrDefault(c => c.Contract == service.Contract) is not { } measured)
            {
                yield return $"{service.Contract.Name}: no workload, not measured";
                continue;
            }

            foreach (var operation in service.Description.Operations.Where(o => !measured.Calls.Any(c => c.Name == o.Name || c.Name.StartsWith(o.Name + " ", StringComparison.Ordinal))))
            {
                yield return $"{service.Contract.Name}.{operation.Name}: no call in {measured.Workload.Name} names it";
            }
        }
    }
}

/// <summary>A contract's calls, from its workload.</summary>
internal sealed record ContractCalls(Type Contract, Type Workload, IReadOnlyList<ContractCall> Calls);

/// <summary>One call: its row name, and what builds it for a client session (the proxy is made once per session).</summary>
internal sealed record ContractCall(string Name, Func<RpcClientSession, Func<Task>> CreateCall);
