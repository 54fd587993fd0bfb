using RpcCompare.Bindings.Grpc.Mapping;
using RpcCompare.Bindings.Grpc.Schema;
using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;
using RpcCompare.Protobuf.Mapping;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Grpc.Tests;

/// <summary>
/// How the contract map lays a contract out on the gRPC wire: which operations keep their one data
/// contract as the message, the envelopes' names and field numbers, and the bytes they produce.
/// </summary>
public sealed class ContractMapTests
{
    private static readonly string Corpus = ContractSchema.Generate([typeof(ICalculator), typeof(IParameterShapes), typeof(IValueTaskForms), typeof(IDataShapes), typeof(IShapes)]).Single().Text;

    [Theory]
    [InlineData(typeof(IFileService))]
    [InlineData(typeof(ICallShapeService))]
    [InlineData(typeof(IPayloadService))]
    public void ProductContracts_SendTheirDataContractsAsTheMessagesThemselves(Type contract)
    {
        Assert.All(GrpcContractMap.For(contract).Operations, o =>
        {
            Assert.NotEqual(MessageShape.Envelope, o.Request.Shape);
            Assert.NotEqual(MessageShape.Envelope, o.Reply.Shape);
        });
    }

    [Fact]
    public void Parameters_AreFields1ToN_AndTheReplyIsTheResultThenOutAndRefValues()
    {
        Assert.Contains("message ParameterShapesDivideRequest {\n   int32 value = 1;\n   string label = 2;\n   int32 divisor = 3;\n}", Corpus, StringComparison.Ordinal);
        Assert.Contains("message ParameterShapesDivideResponse {\n   int32 result = 1;\n   int32 remainder = 2;\n   string label = 3;\n}", Corpus, StringComparison.Ordinal);
        Assert.Contains("message SubtractRequest {\n   double n1 = 1;\n   double n2 = 2;\n}", Corpus, StringComparison.Ordinal);
        Assert.Contains("rpc Reset (.google.protobuf.Empty) returns (.google.protobuf.Empty);", Corpus, StringComparison.Ordinal);
        Assert.Contains("rpc Notify (NotifyRequest) returns (.google.protobuf.Empty);", Corpus, StringComparison.Ordinal);
    }

    [Fact]
    public void AnOperationNameTwoContractsOfOnePackageShare_NamesItsEnvelopesAfterTheService()
    {
        Assert.Contains("rpc Add (CalculatorAddRequest) returns (CalculatorAddResponse);", Corpus, StringComparison.Ordinal);
        Assert.Contains("rpc Add (ValueTaskFormsAddRequest) returns (ValueTaskFormsAddResponse);", Corpus, StringComparison.Ordinal);
        Assert.Contains("rpc Subtract (SubtractRequest) returns (SubtractResponse);", Corpus, StringComparison.Ordinal);
        Assert.Contains("rpc Renamed (RenamedRequest) returns (RenamedResponse);", Corpus, StringComparison.Ordinal);
    }

    [Fact]
    public void UnorderedDataContracts_AreNumberedInDataContractSerializersOrder_InsideTheirBase()
    {
        Assert.Contains("message DerivedType {\n   string cat = 1;\n   string dog = 2;\n   string bird = 3;\n   string albatross = 4;\n   string parrot = 5;\n   string antelope = 6;\n}", Corpus, StringComparison.Ordinal);
        Assert.Contains("message BaseType {\n   string zebra = 1;\n   oneof subtype {\n      DerivedType DerivedType = 100;\n   }\n}", Corpus, StringComparison.Ordinal);
        Assert.Contains("message Shape {\n   string Label = 1;\n   oneof subtype {\n      Circle Circle = 100;\n      Hexagon Hexagon = 101;\n      Square Square = 102;\n      Triangle Triangle = 103;\n   }\n}", Corpus, StringComparison.Ordinal);
        Assert.Contains("message Renamed {\n   int32 Beta = 1;\n   string Middle = 2;\n   int32 aardvark = 3;\n}", Corpus, StringComparison.Ordinal);
    }

    [Fact]
    public void Streams_TravelAsChunks_ClientServerOrBothWays()
    {
        var files = ContractSchema.Generate([typeof(IStreamedFiles)]).Single().Text;
        var map = GrpcContractMap.For(typeof(IStreamedFiles));

        Assert.Equal(
            ["Download ServerStreaming", "DownloadLatest ServerStreaming", "Upload ClientStreaming"],
            map.Operations.Select(o => $"{o.Name} {o.MethodType}").Order());
        Assert.Contains("message StreamChunk {\n   bytes data = 1;\n}", files, StringComparison.Ordinal);
        Assert.Contains("rpc Download (DownloadRequest) returns (stream StreamChunk);", files, StringComparison.Ordinal);
        Assert.Contains("rpc DownloadLatest (.google.protobuf.Empty) returns (stream StreamChunk);", files, StringComparison.Ordinal);
        Assert.Contains("rpc Upload (stream StreamChunk) returns (.google.protobuf.Empty);", files, StringComparison.Ordinal);
    }

    [Fact]
    public void DivideEnvelope_OnTheWire()
    {
        var divide = GrpcContractMap.For(typeof(IParameterShapes)).Operations.Single(o => o.Name == "Divide");
        var form = typeof(IParameterShapes).GetMethod(nameof(IParameterShapes.Divide))!;
        var request = InvokeGeneric(nameof(RequestBytes), divide, form, [new object?[] { 17, null, "x", 5 }]);

        // value = 17 (field 1, varint), label = "x" (field 2, length 1), divisor = 5 (field 3).
        Assert.Equal(new byte[] { 0x08, 17, 0x12, 1, (byte)'x', 0x18, 5 }, request);

        var args = new object?[4];
        var result = InvokeGeneric(nameof(ReadReply), divide, form, [new byte[] { 0x08, 3, 0x10, 2, 0x1A, 1, (byte)'y' }, args]);
        Assert.Equal((3, 2, "y"), ((int)result!, (int)args[1]!, (string)args[2]!));
    }

    private static object? InvokeGeneric(string name, GrpcOperation operation, System.Reflection.MethodInfo form, object?[] rest) =>
        typeof(ContractMapTests).GetMethod(name, System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)!
            .MakeGenericMethod(operation.Request.Type, operation.Reply.Type).Invoke(null, [operation, form, .. rest]);

    private static byte[] RequestBytes<TRequest, TReply>(GrpcOperation operation, System.Reflection.MethodInfo form, object?[] args)
        where TRequest : class
        where TReply : class
    {
        var request = OperationExpressions.Request<TRequest>(operation.Messages, form).Compile()(args);
        using var written = new MemoryStream();
        ProtobufModel.Model.Serialize(written, request);
        return written.ToArray();
    }

    private static int ReadReply<TRequest, TReply>(GrpcOperation operation, System.Reflection.MethodInfo form, byte[] bytes, object?[] args)
        where TRequest : class
        where TReply : class
    {
        var reply = ProtobufModel.Model.Deserialize<TReply>(bytes.AsSpan());
        return OperationExpressions.Result<TReply, int>(operation.Messages, form).Compile()(reply, args);
    }
}
