using RpcCompare.Bindings.Grpc.Client;
using RpcCompare.Bindings.Grpc.Tcp;
using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Grpc.Tests;

/// <summary>
/// The comparison engines the runner measures the product's gRPC path against: each serves and
/// calls RpcCompare's own contracts, refusals included, and says at start-up what it is not given.
/// </summary>
public sealed class ComparisonEngineTests
{
    [Theory]
    [InlineData(GrpcEngine.ProtobufNetGrpc)]
    [InlineData(GrpcEngine.ServiceModelGrpc)]
    public async Task Engine_ServesTheProductContracts(GrpcEngine engine)
    {
        await using var host = await InProcessHost.StartAsync(bindings: [BindingNames.GrpcTcp], configureGrpc: o => o.Engine = engine);
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
    public void Engine_IsNotGivenEnvelopes(GrpcEngine engine, string name)
    {
        using var client = new GrpcTcpClientProvider(new GrpcClientOptions { Engine = engine });

        Assert.Equal(
            $"the {name} engine (a comparison variant) is given only operations taking and returning at most one data contract, without WCF faults",
            client.Check(typeof(ICalculator)).Select(r => r.Reason).Distinct().Single());
        Assert.Empty(new GrpcTcpClientProvider().Check(typeof(ICalculator)));
    }
}
