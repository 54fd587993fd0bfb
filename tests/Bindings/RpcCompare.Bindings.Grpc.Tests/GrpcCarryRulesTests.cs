using RpcCompare.Bindings.Grpc.Tcp;
using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Grpc.Tests;

/// <summary>
/// What the gRPC bindings refuse, in the words the host and the client factory use: the shapes
/// gRPC has no mapping for (callbacks, message contracts, streams for now, Begin/End only, types
/// protobuf cannot write), and nothing the contract map carries.
/// </summary>
public sealed class GrpcCarryRulesTests
{
    private readonly GrpcTcpClientProvider _grpc = new();

    [Theory]
    [InlineData(typeof(IFileService))]
    [InlineData(typeof(ICallShapeService))]
    [InlineData(typeof(IPayloadService))]
    public void ProductContracts_AreCarried(Type contract)
    {
        Assert.Empty(_grpc.Check(contract));
    }

    [Theory]
    [InlineData(typeof(ICalculator))]
    [InlineData(typeof(IService1))]
    [InlineData(typeof(IOrderService))]
    [InlineData(typeof(IParameterShapes))]
    [InlineData(typeof(IValueTaskForms))]
    [InlineData(typeof(IValueTaskNames))]
    [InlineData(typeof(IRenamedOperations))]
    [InlineData(typeof(IShapes))]
    [InlineData(typeof(IDataShapes))]
    public void TeamContracts_AreCarried(Type contract)
    {
        Assert.Empty(_grpc.Check(contract));
    }

    [Fact]
    public void AsyncPatternOnly_IsRefused_AndOutValuesWithoutASyncForm()
    {
        Assert.Equal(
            "binding grpc-tcp cannot carry operation Lookup of contract IAsyncPattern: it has only the Begin/End form; declare a synchronous or Task-based form for gRPC",
            Assert.Single(_grpc.Check(typeof(IAsyncPattern))).ToString());
        Assert.Equal(
            "binding grpc-tcp cannot carry operation Split of contract IAsyncPatternWithOut: it has only the Begin/End form; declare a synchronous or Task-based form for gRPC",
            Assert.Single(_grpc.Check(typeof(IAsyncPatternWithOut))).ToString());
    }

    [Fact]
    public void CallbackContract_IsRefusedAsAWhole()
    {
        var chat = _grpc.Check(typeof(IChat));

        Assert.Equal("binding grpc-tcp cannot carry contract IChat: gRPC has no callback channel (CallbackContract IChatCallback)", chat[0].ToString());
        Assert.Null(chat[0].Operation);
    }

    [Fact]
    public void MessageContracts_AreRefusedOnce()
    {
        var refusal = Assert.Single(_grpc.Check(typeof(ITypedMessages)));

        Assert.Equal("binding grpc-tcp cannot carry operation Place of contract ITypedMessages: [MessageContract] messages have no gRPC mapping", refusal.ToString());
    }

    [Fact]
    public void Streams_AreCarried_WhenEachIsAWholeRequestOrReply()
    {
        Assert.Empty(_grpc.Check(typeof(IStreamedFiles)));
    }

    [Fact]
    public void StreamBesideAParameter_IsRefusedWithWcfsRule()
    {
        var refusal = Assert.Single(_grpc.Check(typeof(IStreamBesideAParameter)));

        Assert.Equal("binding grpc-tcp cannot carry operation Store of contract IStreamBesideAParameter: a Stream parameter must be the operation's only parameter: it is the whole request, sent as a gRPC stream of chunks (WCF's streamed transfer has the same rule)", refusal.ToString());
    }

    [Fact]
    public void ContractWcfRefuses_IsRefusedWithWcfsReason()
    {
        var refusal = Assert.Single(_grpc.Check(typeof(IOverloadsWithoutNames)));

        Assert.Null(refusal.Operation);
        Assert.StartsWith("it does not load as a service contract: Cannot have two operations in the same contract with the same name", refusal.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Create_RefusesBeforeMakingAProxy()
    {
        var error = Assert.Throws<Carrying.ContractNotCarriedException>(() => _grpc.Create<IChat>("http://127.0.0.1:1"));

        Assert.Equal("binding grpc-tcp cannot carry contract IChat: gRPC has no callback channel (CallbackContract IChatCallback)", error.Message);
    }
}
