using System.Reflection;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Generated;
using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;
using RpcCompare.Protobuf.Mapping;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// The generated path (RpcCompare.Fast.Generator, GeneratedCorpus.cs and the binding's built-in
/// contracts): found, checked against the contract model, used by host and client, the same bytes as
/// the reflection path's, and refused where the two disagree.
/// </summary>
public sealed class GeneratedCodeTests
{
    public static TheoryData<Type> Generated =>
    [
        typeof(ICalculator), typeof(IOrderService), typeof(IParameterShapes), typeof(IValueTaskForms), typeof(IShapes), typeof(IDataShapes), typeof(IProbe),
        typeof(ISyncAndTaskForms), typeof(IStreamedFiles), typeof(IValueTaskNames), typeof(IRenamedOperations), typeof(IWithoutNamespace),
        typeof(IFileService), typeof(ICallShapeService), typeof(IPayloadService), typeof(IFileTransferService),
    ];

    [Theory]
    [MemberData(nameof(Generated))]
    public void AListedContract_HasGeneratedCode_ThatAgreesWithTheContractModel(Type contract)
    {
        var found = GeneratedContracts.Find(contract);

        Assert.True(found.Contract is not null, found.Reason);
    }

    [Theory]
    [InlineData(typeof(IChat), "no generated code")]
    [InlineData(typeof(FastCallTests.ITicker), "no generated code")]
    [InlineData(typeof(IAsyncPatternWithOut), "no generated code")]
    [InlineData(typeof(IDerivedFromUnattributed), "the contract model refuses the contract")]
    [InlineData(typeof(IPushServiceStandIn), "no generated code")]
    public void AContractTheGeneratorSkipped_OrTheModelRefuses_HasNone_AndSaysWhy(Type contract, string reason)
    {
        var found = GeneratedContracts.Find(contract);

        Assert.Null(found.Contract);
        Assert.StartsWith(reason, found.Reason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(true, "through generated code")]
    [InlineData(false, "through reflection: generated code turned off (GeneratedCode)")]
    public async Task TheHost_SaysOncePerContract_WhichPathServesIt(bool generatedCode, string path)
    {
        await using var server = await TestFastServer.StartAsync(o => o.GeneratedCode = generatedCode);

        Assert.Single(server.Log.Matching($"serves ICalculator (RpcCompare.ContractCorpus) {path}"));
        Assert.Single(server.Log.Matching($"serves IProbe (RpcCompare.Bindings.Fast.Tests) {path}"));
    }

    [Theory]
    [InlineData(true, false)]
    [InlineData(false, true)]
    public async Task TheClient_IsTheGeneratedProxy_UnlessTurnedOff(bool generatedCode, bool dispatchProxy)
    {
        await using var server = await TestFastServer.StartAsync();

        var client = server.Client<ICalculator>(new FastClientOptions { GeneratedCode = generatedCode });

        Assert.Equal(dispatchProxy, client is DispatchProxy);
        Assert.Equal(5, client.Add(2, 3));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task EachPath_TalksToTheOther_EnvelopesOutAndRefValuesAndFaults(bool generatedServer)
    {
        await using var server = await TestFastServer.StartAsync(o => o.GeneratedCode = generatedServer);
        var options = new FastClientOptions { GeneratedCode = !generatedServer };
        var shapes = server.Client<IParameterShapes>(options);
        var label = "seventeen";

        var quotient = shapes.Divide(17, out var remainder, ref label, 5);

        Assert.Equal((3, 2, "seventeen: 17 / 5"), (quotient, remainder, label));
        Assert.Equal(1.5, server.Client<ICalculator>(options).Divide(3, 2));
        Assert.Equal("abab", await server.Client<IValueTaskForms>(options).EchoAsync("ab"));
        Assert.Equal(
            "quantity must be at least 1",
            (await Assert.ThrowsAsync<System.ServiceModel.FaultException<OrderFault>>(() =>
                server.Client<IOrderService>(options).PlaceOrderAsync(new Order { Customer = "Ada", Lines = [new() { Sku = "B-2", Quantity = 0 }] }))).Detail.Reason);
    }

    [Fact]
    public void AGeneratedEnvelope_IsWrittenAsTheEmittedOneIs()
    {
        Assert.NotNull(GeneratedContracts.Find(typeof(IParameterShapes)).Contract);
        var model = ContractMessages.For(typeof(IParameterShapes)).Operations.Single(o => o.Name == "Divide");
        var emitted = Activator.CreateInstance(model.Request.Type)!;
        model.Request.Fields[0].Field.SetValue(emitted, 17);
        model.Request.Fields[1].Field.SetValue(emitted, "seventeen");
        model.Request.Fields[2].Field.SetValue(emitted, 5);
        var generated = new GeneratedCorpus.IParameterShapes_Fast.Divide_Request { value = 17, label = "seventeen", divisor = 5 };

        Assert.Equal(Bytes(emitted), Bytes(generated));
        Assert.NotEmpty(Bytes(generated));
    }

    [Fact]
    public void GeneratedCodeThatDiffersFromTheModel_IsFound_OperationByOperation()
    {
        var model = ContractMessages.For(typeof(ICalculator));

        var differences = GeneratedContracts.Differences(new MisgeneratedCalculator(), model).ToList();

        Assert.Equal(
            [
                "Add request has fields (Double n2, Double n1) against (Double n1, Double n2)",
                "Subtract reply is Empty against Envelope",
                "Times is no operation the contract model carries",
                "Multiply has no generated code",
                "Divide has no generated code",
            ],
            differences);
        Assert.Empty(GeneratedContracts.Differences(new GeneratedCorpus.ICalculator_Fast(), model));
    }

    private static byte[] Bytes(object message)
    {
        using var stream = new MemoryStream();
        ProtobufModel.Model.Serialize(stream, message);
        return stream.ToArray();
    }

    /// <summary>Stands for a contract no [FastContracts] lists (the push contract's subscription is IAsyncEnumerable).</summary>
    [System.ServiceModel.ServiceContract]
    public interface IPushServiceStandIn
    {
        [System.ServiceModel.OperationContract]
        void Touch();
    }

    /// <summary>Generated code gone wrong three ways: fields swapped, a reply's shape, an operation's name; two operations missing.</summary>
    private sealed class MisgeneratedCalculator : GeneratedFastContract
    {
        public override Type Contract => typeof(ICalculator);

        public override IReadOnlyList<GeneratedOperation> Operations { get; } =
        [
            new GeneratedOperation<ICalculator, GeneratedCorpus.ICalculator_Fast.Add_Request, GeneratedCorpus.ICalculator_Fast.Add_Response>(
                "Add", GeneratedMessage.Envelope("n2", "n1"), GeneratedMessage.Envelope("result"), (_, _, _) => default),
            new GeneratedOperation<ICalculator, GeneratedCorpus.ICalculator_Fast.Subtract_Request, EmptyMessage>(
                "Subtract", GeneratedMessage.Envelope("n1", "n2"), GeneratedMessage.Empty, (_, _, _) => default),
            new GeneratedOperation<ICalculator, GeneratedCorpus.ICalculator_Fast.Multiply_Request, GeneratedCorpus.ICalculator_Fast.Multiply_Response>(
                "Times", GeneratedMessage.Envelope("n1", "n2"), GeneratedMessage.Envelope("result"), (_, _, _) => default),
        ];

        public override object CreateClient(FastGeneratedClient client) => throw new NotSupportedException();
    }
}
