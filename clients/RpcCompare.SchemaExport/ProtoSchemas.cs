using RpcCompare.Bindings.Grpc.Schema;
using RpcCompare.Contracts;

namespace RpcCompare.SchemaExport;

/// <summary>
/// The .proto files of RpcCompare's contracts: <see cref="ContractSchema"/>'s files for the
/// services the product's host serves, the same text its gRPC bindings describe through server
/// reflection (one proto3 file for the rpccompare.v1 package).
/// </summary>
public static class ProtoSchemas
{
    /// <summary>The services, in the order the file lists them.</summary>
    public static IReadOnlyList<Type> Services { get; } = [typeof(IFileService), typeof(ICallShapeService), typeof(IPayloadService), typeof(IFileTransferService), typeof(Contracts.Push.IPushService)];

    /// <summary>File name (relative to clients/proto) to content.</summary>
    public static IReadOnlyDictionary<string, string> Generate() =>
        ContractSchema.Generate(Services).ToDictionary(f => f.Name, f => f.Text, StringComparer.Ordinal);
}
