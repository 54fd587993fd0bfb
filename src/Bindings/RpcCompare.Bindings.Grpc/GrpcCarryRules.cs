using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Grpc.Mapping;
using RpcCompare.Description;
using RpcCompare.Protobuf.Mapping;

namespace RpcCompare.Bindings.Grpc;

/// <summary>
/// What the grpc-* bindings carry: every operation <see cref="GrpcContractMap"/> maps. The rest
/// (callback contracts, message contracts, streams for now, types protobuf-net cannot write) is
/// refused before the server listens and before a client proxy is made, so a contract never fails
/// at its first call or takes the other contracts' gRPC services down with it.
/// </summary>
internal sealed class GrpcCarryRules : CarryRules
{
    private readonly string? _comparisonEngine;

    private GrpcCarryRules(string? comparisonEngine)
    {
        _comparisonEngine = comparisonEngine;
    }

    public static GrpcCarryRules Instance { get; } = new(comparisonEngine: null);

    private static GrpcCarryRules ProtobufNetGrpc { get; } = new("protobuf-net.Grpc");

    private static GrpcCarryRules ServiceModelGrpc { get; } = new("ServiceModel.Grpc");

    /// <summary>
    /// The engine's rules: a comparison engine is given the map's refusals and, besides, every
    /// operation that needs an envelope or declares WCF faults (the variant measures the shapes both carry).
    /// </summary>
    public static GrpcCarryRules For(GrpcEngine engine) => engine switch
    {
        GrpcEngine.ProtobufNetGrpc => ProtobufNetGrpc,
        GrpcEngine.ServiceModelGrpc => ServiceModelGrpc,
        _ => Instance,
    };

    protected override IEnumerable<string> RefuseContract(ServiceContractDescription contract) =>
        GrpcContractMap.For(contract.ContractType).Refusals.Where(r => r.Operation is null).Select(r => r.Reason);

    protected override IEnumerable<string> RefuseOperation(ServiceContractDescription contract, OperationDescription operation)
    {
        var map = GrpcContractMap.For(contract.ContractType);
        foreach (var refusal in map.Refusals.Where(r => r.Operation == operation.Name))
        {
            yield return refusal.Reason;
        }

        if (_comparisonEngine is not null && map.Operations.FirstOrDefault(o => o.Description == operation) is { } mapped
            && (mapped.Request.Shape is MessageShape.Envelope or MessageShape.Chunks || mapped.Reply.Shape is MessageShape.Envelope or MessageShape.Chunks
                || mapped.Description.Faults.Any(f => f.DetailType != typeof(Contracts.RpcFault))))
        {
            yield return $"the {_comparisonEngine} engine (a comparison variant) is given only operations taking and returning at most one data contract, without WCF faults or streams";
        }
    }
}
