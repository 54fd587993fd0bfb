using System.Collections.Concurrent;
using System.Reflection;
using RpcCompare.Description;
using RpcCompare.Protobuf.Mapping;

namespace RpcCompare.Bindings.Grpc.Mapping;

/// <summary>
/// A contract as the grpc-* bindings carry it: the protobuf mapping every protobuf binding shares
/// (<see cref="ContractMessages"/>), each carried operation a gRPC method of the contract's service.
/// </summary>
internal sealed class GrpcContractMap
{
    private static readonly ConcurrentDictionary<Type, Lazy<GrpcContractMap>> Maps = new();

    private GrpcContractMap(ContractMessages messages)
    {
        Messages = messages;
        Operations = [.. messages.Operations.Select(o => new GrpcOperation(o))];
        Refusals = [.. messages.RefusalsFor("gRPC")];
    }

    public ContractMessages Messages { get; }

    public ServiceContractDescription Description => Messages.Description;

    public string ServiceName => Messages.ServiceName;

    /// <summary>The operations carried.</summary>
    public IReadOnlyList<GrpcOperation> Operations { get; }

    /// <summary>Why the contract (operation null) or an operation is not carried.</summary>
    public IReadOnlyList<(string? Operation, string Reason)> Refusals { get; }

    /// <summary>The contract's map, built on first use. Throws <see cref="ContractLoadException"/> for a type that is no contract.</summary>
    public static GrpcContractMap For(Type contract)
    {
        ArgumentNullException.ThrowIfNull(contract);
        return Maps.GetOrAdd(contract, static c => new Lazy<GrpcContractMap>(() => new GrpcContractMap(ContractMessages.For(c)))).Value;
    }

    /// <summary>The carried operation a method of the contract (any of its forms) belongs to, or null.</summary>
    public GrpcOperation? OperationOf(MethodInfo method) =>
        Messages.OperationOf(method) is { } operation ? Operations.FirstOrDefault(o => o.Messages == operation) : null;
}
