namespace RpcCompare.Bindings.Grpc;

/// <summary>What turns contracts into gRPC methods, on the server and in the client.</summary>
public enum GrpcEngine
{
    /// <summary>
    /// The product's own (the default): methods built from the contract model
    /// (<see cref="Mapping.GrpcContractMap"/>), carrying several parameters, out and ref values,
    /// sync and one-way operations, WCF faults and data contracts without Order.
    /// </summary>
    ContractModel,

    /// <summary>
    /// protobuf-net.Grpc's code-first binder and client proxies, kept so the runner can measure the
    /// product's gRPC path against it on the same contracts. It carries only operations that take
    /// and return at most one data contract; a host refuses to start with any other.
    /// </summary>
    ProtobufNetGrpc,

    /// <summary>
    /// ServiceModel.Grpc (its protobuf marshaller), the established library for WCF contracts over
    /// gRPC, as a comparison variant. Its wire differs (it wraps every parameter list in a message
    /// of its own), so only its own client calls it; like <see cref="ProtobufNetGrpc"/> it is given
    /// only operations taking and returning at most one data contract.
    /// </summary>
    ServiceModelGrpc,
}
