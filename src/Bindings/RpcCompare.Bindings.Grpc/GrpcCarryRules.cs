using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Grpc.Mapping;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Grpc;

/// <summary>
/// What the grpc-* bindings carry: every operation <see cref="GrpcContractMap"/> maps. The rest
/// (callback contracts, message contracts, streams for now, types protobuf-net cannot write) is
/// refused before the server listens and before a client proxy is made, so a contract never fails
/// at its first call or takes the other contracts' gRPC services down with it.
/// </summary>
internal sealed class GrpcCarryRules : CarryRules
{
    private GrpcCarryRules()
    {
    }

    public static GrpcCarryRules Instance { get; } = new();

    protected override IEnumerable<string> RefuseContract(ServiceContractDescription contract) =>
        GrpcContractMap.For(contract.ContractType).Refusals.Where(r => r.Operation is null).Select(r => r.Reason);

    protected override IEnumerable<string> RefuseOperation(ServiceContractDescription contract, OperationDescription operation) =>
        GrpcContractMap.For(contract.ContractType).Refusals.Where(r => r.Operation == operation.Name).Select(r => r.Reason);
}
