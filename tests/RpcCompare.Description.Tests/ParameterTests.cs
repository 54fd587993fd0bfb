using RpcCompare.ContractCorpus;

namespace RpcCompare.Description.Tests;

public class ParameterTests
{
    [Fact]
    public void SeveralPrimitives_AreInputsInDeclarationOrder()
    {
        var add = ContractLoader.Read(typeof(ICalculator)).Operation("Add");

        Assert.Equal(["n1", "n2"], add.Inputs.Select(p => p.Name));
        Assert.Equal([0, 1], add.Inputs.Select(p => p.Position));
        Assert.All(add.Inputs, p => Assert.Equal(typeof(double), p.Type));
        Assert.Empty(add.Outputs);
        Assert.Equal(new ReturnDescription("AddResult", typeof(double)), add.Return);
    }

    [Fact]
    public void OutAndRef_FollowTheReturnValueInDeclarationOrder()
    {
        var divide = ContractLoader.Read(typeof(IParameterShapes)).Operation("Divide");

        Assert.Equal(
            [("value", ParameterDirection.In), ("remainder", ParameterDirection.Out), ("label", ParameterDirection.Ref), ("divisor", ParameterDirection.In)],
            divide.Parameters.Select(p => (p.Name, p.Direction)));
        Assert.Equal(["value", "label", "divisor"], divide.Inputs.Select(p => p.Name));
        Assert.Equal(["remainder", "label"], divide.Outputs.Select(p => p.Name));
        Assert.Equal([typeof(int), typeof(string)], divide.Outputs.Select(p => p.Type));
        Assert.Equal([1, 2], divide.Outputs.Select(p => p.Position));
        Assert.Equal(typeof(int), divide.Return!.Type);
    }

    [Fact]
    public void ParameterDirections_SayWhichMessagesCarryThem()
    {
        var parameters = ContractLoader.Read(typeof(IParameterShapes)).Operation("Divide").Parameters;

        Assert.Equal([true, false, true, true], parameters.Select(p => p.IsInput));
        Assert.Equal([false, true, true, false], parameters.Select(p => p.IsOutput));
    }

    [Fact]
    public void MessageParameterNames_RenameParts_NotParameters()
    {
        var renamed = ContractLoader.Read(typeof(IRenamedOperations));
        var b = renamed.Operation("SumOfDoubles").Inputs[1];

        Assert.Equal("b", b.Name);
        Assert.Equal("addend", b.PartName);
        Assert.Equal("a", renamed.Operation("SumOfDoubles").Inputs[0].PartName);
        Assert.Equal(new ReturnDescription("total", typeof(long)), renamed.Operation("Total").Return);
    }

    [Fact]
    public void VoidAndTask_HaveNoReturnValue_ButARequestReply()
    {
        var shapes = ContractLoader.Read(typeof(IParameterShapes));

        Assert.Null(shapes.Operation("Reset").Return);
        Assert.False(shapes.Operation("Reset").IsOneWay);
        Assert.Equal("urn:corpus:parameters/IParameterShapes/ResetResponse", shapes.Operation("Reset").ReplyAction);
        Assert.Null(shapes.Operation("Notify").Return);
        Assert.Equal(OperationForms.Task, shapes.Operation("Notify").Forms);
    }

    [Fact]
    public void OneWay_HasNoReply()
    {
        var fire = ContractLoader.Read(typeof(IParameterShapes)).Operation("Fire");

        Assert.True(fire.IsOneWay);
        Assert.Null(fire.ReplyAction);
        Assert.Null(fire.Return);
        Assert.Equal("urn:corpus:parameters/IParameterShapes/Fire", fire.Action);
    }

    [Fact]
    public void TaskOfT_ReturnsItsT_AndSeveralInputs()
    {
        var place = ContractLoader.Read(typeof(IOrderService)).Operation("PlaceOrder");

        Assert.Equal(typeof(int), place.Return!.Type);
        Assert.Equal("PlaceOrderResult", place.Return.PartName);
        Assert.Equal(typeof(Order), Assert.Single(place.Inputs).Type);
    }

    [Fact]
    public void Streams_AreRecognisedInEitherDirection()
    {
        var files = ContractLoader.Read(typeof(IStreamedFiles));

        Assert.True(files.Operation("Download").IsStreamed);
        Assert.True(files.Operation("Download").Return!.IsStream);
        Assert.True(files.Operation("Upload").IsStreamed);
        Assert.True(files.Operation("Upload").Inputs[0].IsStream);
        Assert.True(files.Operation("DownloadLatest").IsStreamed);
        Assert.False(ContractLoader.Read(typeof(ICalculator)).Operation("Add").IsStreamed);
        Assert.True(ContractLoader.Read(typeof(IStreamBesideAParameter)).Operation("Store").IsStreamed);
    }

    [Fact]
    public void TypedMessages_AreRecordedForBothDirections()
    {
        var place = ContractLoader.Read(typeof(ITypedMessages)).Operation("Place");

        Assert.Equal(typeof(PlaceRequest), place.RequestMessageType);
        Assert.Equal(typeof(PlaceResponse), place.ReplyMessageType);
        Assert.Null(ContractLoader.Read(typeof(ICalculator)).Operation("Add").RequestMessageType);
        Assert.Null(ContractLoader.Read(typeof(ICalculator)).Operation("Add").ReplyMessageType);
    }
}
