using ProtoBuf.Grpc.Configuration;

namespace RpcCompare.SchemaExport.Tests;

public sealed class ProtoSchemasTests
{
    private const string Regenerate = "dotnet run --project clients/RpcCompare.SchemaExport";

    [Fact]
    public void CheckedInProtoFiles_MatchWhatTheContractsGenerate()
    {
        var directory = Path.Combine(RepositoryRoot(), "clients", "proto");

        foreach (var (name, generated) in ProtoSchemas.Generate())
        {
            var path = Path.Combine(directory, name);
            Assert.True(File.Exists(path), $"{path} is missing; run `{Regenerate}` from the repository root.");
            var checkedIn = File.ReadAllText(path).ReplaceLineEndings("\n");
            Assert.True(checkedIn == generated, $"{path} is stale: the contracts changed. Run `{Regenerate}` from the repository root and commit the result.");
        }

        Assert.Equal(ProtoSchemas.Generate().Keys.Order(StringComparer.Ordinal), Directory.GetFiles(directory, "*.proto").Select(Path.GetFileName).Order(StringComparer.Ordinal));
    }

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

    private static string RepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "RpcCompare.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("RpcCompare.sln not found above the test's folder.");
    }
}
