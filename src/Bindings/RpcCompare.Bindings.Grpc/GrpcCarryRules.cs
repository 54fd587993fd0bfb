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
    private readonly bool _singleMessagesOnly;

    private GrpcCarryRules(bool singleMessagesOnly)
    {
        _singleMessagesOnly = singleMessagesOnly;
    }

    public static GrpcCarryRules Instance { get; } = new(singleMessagesOnly: false);

    /// <summary>protobuf-net.Grpc's binder: the map's refusals, and every operation that needs an envelope.</summary>
    public static GrpcCarryRules ProtobufNetGrpc { get; } = new(singleMessagesOnly: true);

    public static GrpcCarryRules For(GrpcEngine engine) => engine == GrpcEngine.ProtobufNetGrpc ? ProtobufNetGrpc : Instance;

    protected override IEnumerable<string> RefuseContract(ServiceContractDescription contract) =>
        GrpcContractMap.For(contract.ContractType).Refusals.Where(r => r.Operation is null).Select(r => r.Reason);

    protected override IEnumerable<string> RefuseOperation(ServiceContractDescription contract, OperationDescription operation)
    {
        var map = GrpcContractMap.For(contract.ContractType);
        foreach (var refusal in map.Refusals.Where(r => r.Operation == operation.Name))
        {
            yield return refusal.Reason;
        }

        if (_singleMessagesOnly && map.Operations.FirstOrDefault(o => o.Description == operation) is { } mapped
            && (mapped.Request.Shape == MessageShape.Envelope || mapped.Reply.Shape == MessageShape.Envelope || mapped.Description.Faults.Any(f => f.DetailType != typeof(Contracts.RpcFault))))
        {
            yield return "the protobuf-net.Grpc engine (a comparison variant) carries only operations taking and returning at most one data contract, without WCF faults";
        }
    }
}
