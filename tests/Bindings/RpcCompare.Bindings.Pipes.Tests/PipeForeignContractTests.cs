using System.ServiceModel;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Bindings.Pipes.Server;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// A host that serves contracts the hand-written pipes binding does not carry: it still starts,
/// says once which contracts pipes leaves out, and answers calls to a product contract the host
/// does not serve with a clear NotFound.
/// </summary>
public sealed class PipeForeignContractTests
{
    [Fact]
    public async Task HostWithOnlyAnotherContract_Starts_AndSaysOnceWhatPipesDoesNotCarry()
    {
        await using var server = await TestPipeServer.StartAsync(registerContracts: s => s.AddRpcService<ICalculator, Calculator>());

        var notCarried = Assert.Single(server.Log.Matching("does not carry"));
        Assert.EndsWith("The pipes binding is the hand-written baseline for RpcCompare's own contracts; it does not carry ICalculator", notCarried, StringComparison.Ordinal);
        Assert.Equal(server.Path, server.Server.Address);
    }

    [Fact]
    public async Task CallToAProductContractTheHostDoesNotServe_IsNotFound_AndTheConnectionStaysUsable()
    {
        await using var server = await TestPipeServer.StartAsync(registerContracts: s => s.AddRpcService<ICalculator, Calculator>());
        var client = new PipesClientProvider().Create<IFileService>(server.Path);
        await using var disposable = (IAsyncDisposable)client;

        var first = await Assert.ThrowsAsync<RpcServiceException>(() => client.PingAsync(new PingRequest()));
        var second = await Assert.ThrowsAsync<RpcServiceException>(() => client.PingAsync(new PingRequest()));

        Assert.Equal(RpcErrorCode.NotFound, first.Code);
        Assert.Equal("This host does not serve rpccompare.v1.FileService.", first.Message);
        Assert.Equal(first.Message, second.Message);
    }

    [Fact]
    public async Task HostServingOnlyTheProductContracts_LogsNothingAboutCarrying()
    {
        await using var server = await TestPipeServer.StartAsync();

        Assert.Empty(server.Log.Matching("does not carry"));
    }

    [Theory]
    [InlineData((byte)OperationCode.Ping, ServiceNames.FileService)]
    [InlineData((byte)OperationCode.VoidCall, ServiceNames.CallShapeService)]
    [InlineData((byte)OperationCode.SendString, ServiceNames.PayloadService)]
    public async Task DispatcherWithoutAService_NamesTheServiceItLacks(byte operation, string service)
    {
        var dispatcher = new PipeDispatcher();
        using var reply = new FrameBuffer();

        var error = await Assert.ThrowsAsync<RpcServiceException>(async () => await dispatcher.DispatchAsync((OperationCode)operation, ReadOnlyMemory<byte>.Empty, reply));

        Assert.Equal(RpcErrorCode.NotFound, error.Code);
        Assert.Equal($"This host does not serve {service}.", error.Message);
    }

    [Fact]
    public void NotCarried_ListsEveryRegisteredContractButTheProducts()
    {
        var dispatcher = new PipeDispatcher(served:
        [
            new RpcServiceDescriptor(typeof(IFileService), typeof(object)),
            new RpcServiceDescriptor(typeof(ICalculator), typeof(Calculator)),
            new RpcServiceDescriptor(typeof(IPayloadService), typeof(object)),
            new RpcServiceDescriptor(typeof(ICallShapeService), typeof(object)),
        ]);

        Assert.Equal(["ICalculator"], dispatcher.NotCarried);
        Assert.Empty(new PipeDispatcher().NotCarried);
    }

    [ServiceContract]
    public interface ICalculator
    {
        [OperationContract]
        double Add(double n1, double n2);
    }

    public sealed class Calculator : ICalculator
    {
        public double Add(double n1, double n2) => n1 + n2;
    }
}
