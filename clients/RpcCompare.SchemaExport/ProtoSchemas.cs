using ProtoBuf.Grpc.Reflection;
using ProtoBuf.Meta;
using RpcCompare.Contracts;

namespace RpcCompare.SchemaExport;

/// <summary>
/// The .proto files of RpcCompare's contracts, as protobuf-net.Grpc serves them: one file for the
/// rpccompare.v1 package with every service and message.
/// </summary>
public static class ProtoSchemas
{
    /// <summary>The services, in the order the file lists them.</summary>
    public static IReadOnlyList<Type> Services { get; } = [typeof(IFileService), typeof(ICallShapeService), typeof(IPayloadService), typeof(Contracts.Push.IPushService)];

    /// <summary>File name (relative to clients/proto) to content.</summary>
    public static IReadOnlyDictionary<string, string> Generate()
    {
        var generator = new SchemaGenerator { ProtoSyntax = ProtoSyntax.Proto2 };
        var schema = generator.GetSchema([.. Services]);
        // One line ending everywhere, so the staleness test does not depend on the platform.
        return new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["rpccompare.v1.proto"] = schema.ReplaceLineEndings("\n"),
        };
    }
}
