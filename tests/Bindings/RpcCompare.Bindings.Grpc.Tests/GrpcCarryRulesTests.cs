using RpcCompare.Bindings.Grpc.Tcp;
using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Grpc.Tests;

/// <summary>
/// What the gRPC bindings refuse, in the words the host and the client factory use: every shape
/// protobuf-net.Grpc cannot bind or would write wrongly, and nothing it carries today.
/// </summary>
public sealed class GrpcCarryRulesTests
{
    private const string OneMessage = "this gRPC binding (protobuf-net.Grpc) carries one data contract as the request and one as the reply";
    private readonly GrpcTcpClientProvider _grpc = new();

    [Theory]
    [InlineData(typeof(IFileService))]
    [InlineData(typeof(ICallShapeService))]
    [InlineData(typeof(IPayloadService))]
    public void ProductContracts_AreCarried(Type contract)
    {
        Assert.Empty(_grpc.Check(contract));
    }

    [Fact]
    public void SeveralParameters_OutAndRef_AndAPrimitiveResult_AreEachNamed()
    {
        var divide = _grpc.Check(typeof(IParameterShapes)).Where(r => r.Operation == "Divide").Select(r => r.ToString());

        Assert.Equal(
            [
                $"binding grpc-tcp cannot carry operation Divide of contract IParameterShapes: it takes 3 parameters (value, label, divisor); {OneMessage}",
                "binding grpc-tcp cannot carry operation Divide of contract IParameterShapes: out and ref parameters (remainder, label) have no place in its one reply message",
                $"binding grpc-tcp cannot carry operation Divide of contract IParameterShapes: it returns int, not a data contract; {OneMessage}",
            ],
            divide);
    }

    [Fact]
    public void OperationsWithoutData_AreCarried()
    {
        var refused = _grpc.Check(typeof(IParameterShapes)).Select(r => r.Operation).Distinct();

        Assert.Equal(["Divide", "Fire", "Notify"], refused.Order());
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
    public void Streams_AreNotDataContracts()
    {
        var refusals = _grpc.Check(typeof(IStreamedFiles)).Select(r => (r.Operation, r.Reason));

        Assert.Contains(("Download", $"it returns Stream, not a data contract; {OneMessage}"), refusals);
        Assert.Contains(("Upload", $"its parameter data is Stream, not a data contract; {OneMessage}"), refusals);
    }

    [Fact]
    public void UnorderedMembers_AndUndeclaredKnownTypes_WouldBeLostOnTheWire()
    {
        var largest = _grpc.Check(typeof(IShapes)).Where(r => r.Operation == "Largest").Select(r => r.Reason).ToList();

        Assert.Contains($"its parameter shapes is Shape[], not a data contract; {OneMessage}", largest);
        Assert.Contains("data contract Shape has members without distinct Orders of 1 or more (Label); protobuf-net would leave them off the wire", largest);
        Assert.Contains("data contract Triangle has members without distinct Orders of 1 or more (Base, Height); protobuf-net would leave them off the wire", largest);
        Assert.Contains("known type Circle of Shape is not declared to protobuf ([ProtoInclude] on Shape)", largest);
        Assert.Contains("known type Triangle of Shape is not declared to protobuf ([ProtoInclude] on Shape)", largest);
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
        var error = Assert.Throws<Carrying.ContractNotCarriedException>(() => _grpc.Create<ICalculator>("http://127.0.0.1:1"));

        Assert.Equal(8, error.Refusals.Count);
        Assert.StartsWith("8 shapes are not carried:", error.Message, StringComparison.Ordinal);
    }
}
