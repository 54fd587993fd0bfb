using System.Reflection;
using System.ServiceModel;

namespace RpcCompare.Bindings.Wcf;

/// <summary>Where each contract lives under a binding's address: one endpoint per contract, named by its dotted service name.</summary>
public static class WcfEndpoints
{
    /// <summary>The contract's [ServiceContract(Name)] (rpccompare.v1.FileService), or its type name.</summary>
    public static string NameOf(Type contract) =>
        contract.GetCustomAttribute<ServiceContractAttribute>()?.Name is { Length: > 0 } name ? name : contract.Name;
}
