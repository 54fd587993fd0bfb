using RpcCompare.Description;

namespace RpcCompare.Bindings;

/// <summary>One contract a host serves and the type implementing it.</summary>
public sealed record RpcServiceDescriptor(Type Contract, Type Implementation)
{
    /// <summary>The contract as the contract model reads it (loaded once per process).</summary>
    public ServiceContractDescription Description => ContractLoader.Load(Contract);
}
