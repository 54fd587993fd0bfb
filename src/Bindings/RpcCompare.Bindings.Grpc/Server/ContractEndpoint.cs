namespace RpcCompare.Bindings.Grpc.Server;

/// <summary>
/// The gRPC service type a contract is mapped as: one per contract, holding the host's instance of
/// its implementation (a singleton in the binding's container, so no call creates one). Its own
/// type implements no [ServiceContract], so protobuf-net.Grpc's method provider leaves it alone.
/// </summary>
internal sealed class ContractEndpoint<TContract>
    where TContract : class
{
    public ContractEndpoint(TContract service)
    {
        Service = service;
    }

    public TContract Service { get; }
}
