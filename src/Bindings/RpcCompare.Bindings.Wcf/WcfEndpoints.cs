using System.Reflection;
using System.ServiceModel;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Wcf;

/// <summary>Where each contract lives under a binding's address: one endpoint per contract, named by its dotted service name.</summary>
public static class WcfEndpoints
{
    /// <summary>The contract's [ServiceContract(Name)] (rpccompare.v1.FileService), or its type name.</summary>
    public static string NameOf(Type contract) =>
        contract.GetCustomAttribute<ServiceContractAttribute>()?.Name is { Length: > 0 } name ? name : contract.Name;

    /// <summary>True when an operation of the contract takes or returns a Stream: its endpoint uses streamed transfer on both sides.</summary>
    public static bool IsStreamed(Type contract) => ContractLoader.Load(contract).Operations.Any(o => o.IsStreamed);
}
