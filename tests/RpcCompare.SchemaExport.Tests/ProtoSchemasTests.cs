using ProtoBuf.Grpc.Configuration;

namespace RpcCompare.SchemaExport.Tests;

public sealed class ProtoSchemasTests
{
    [Fact]
    public void CheckedInProtoFiles_MatchWhatTheContractsGenerate() =>
        CheckedInFiles.AssertMatch("proto", "*.proto", ProtoSchemas.Generate());

    [Fact]
    public void ProtoFile_DeclaresEveryServiceAndOperationUnderItsDottedName()
    {
        var proto = ProtoSchemas.Generate().Single().Value;

        Assert.Contains("package rpccompare.v1;", proto, StringComparison.Ordinal);
        foreach (var contract in ProtoSchemas.Services)
        {
            Assert.True(BinderConfiguration.Default.Binder.IsServiceContract(contract, out var name));
            Assert.StartsWith("rpccompare.v1.", name, StringComparison.Ordinal);
            Assert.Contains($"service {name!["rpccompare.v1.".Length..]} {{", proto, StringComparison.Ordinal);
            Assert.All(contract.GetMethods(), method => Assert.Contains($"rpc {method.Name[..^"Async".Length]} (", proto, StringComparison.Ordinal));
        }
    }
}
