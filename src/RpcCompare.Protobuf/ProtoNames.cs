using ProtoBuf.Grpc.Configuration;

namespace RpcCompare.Protobuf;

/// <summary>
/// The proto names of service contracts, by protobuf-net.Grpc's binder (the names its clients and the
/// exported .proto files use): one rule for every protobuf binding.
/// </summary>
public static class ProtoNames
{
    /// <summary>The proto service name of a contract (<c>rpccompare.v1.FileService</c>).</summary>
    public static string ServiceName(Type contract) =>
        BinderConfiguration.Default.Binder.IsServiceContract(contract, out var name) && name is not null
            ? name
            : throw new InvalidOperationException($"{contract} is not a service contract protobuf-net.Grpc can serve.");

    /// <summary>The package of a dotted service name (<c>rpccompare.v1</c> of <c>rpccompare.v1.FileService</c>); empty when undotted.</summary>
    public static string PackageOf(string serviceName)
    {
        var dot = serviceName.LastIndexOf('.');
        return dot < 0 ? "" : serviceName[..dot];
    }
}
