using RpcCompare.Bindings.Grpc.Client;
using RpcCompare.Bindings.Grpc.Tcp;
using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Grpc.Tests;

/// <summary>
/// The comparison engines the runner measures the product's gRPC path against: each serves and
/// calls RpcCompare's own buffered contracts, refusals included, and says at start-up what it is not given.
/// </summary>
public sealed class ComparisonEngineTests
{
    [Theory]
    [InlineData(GrpcEngine.ProtobufNetGrpc)]
    [InlineData(GrpcEngine.ServiceModelGrpc)]
    public async Task Engine_ServesTheProductContracts(GrpcEngine engine)
    {
        // The buffered services, as the runner's comparison hosts serve them (neither peer library carries a Stream).
        await using var host = await InProcessHost.StartAsync(bindings: [BindingNames.GrpcTcp], configureGrpc: o => o.Engine = engine, services: ["FileService", "CallShapeService", "PayloadService"]);
        using var client = new GrpcTcpClientProvider(new GrpcClientOptions { Engine = engine });
        var address = host.Address(BindingNames.GrpcTcp);
        var files = client.Create<IFileService>(address);
        var shapes = client.Create<ICallShapeService>(address);

        await files.PingAsync(new PingRequest()).Bounded();
        var incremented = await shapes.IncrementAsync(new IntMessage { Value = 41 }).Bounded();
        var refused = await Assert.ThrowsAsync<RpcServiceException>(() => files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "no-such-directory" })).Bounded();

        Assert.Equal(42, incremented.Value);
        Assert.Equal(RpcErrorCode.NotFound, refused.Code);
    }

    [Theory]
    [InlineData(GrpcEngine.ProtobufNetGrpc, "protobuf-net.Grpc")]
    [InlineData(GrpcEngine.ServiceModelGrpc, "ServiceModel.Grpc")]
    public void Engine_IsNotGivenEnvelopesOrStreams(GrpcEngine engine, string name)
    {
        using var client = new GrpcTcpClientProvider(new GrpcClientOptions { Engine = engine });
        var reason = $"the {name} engine (a comparison variant) is given only operations taking and returning at most one data contract, without WCF faults or streams";

        Assert.Equal(reason, client.Check(typeof(ICalculator)).Select(r => r.Reason).Distinct().Single());
        Assert.Equal(4, client.Check(typeof(IFileTransferService)).Count(r => r.Reason == reason));
        Assert.Empty(new GrpcTcpClientProvider().Check(typeof(ICalculator)));
        Assert.Empty(new GrpcTcpClientProvider().Check(typeof(IFileTransferService)));
    }
}
