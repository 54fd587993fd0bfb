using RpcCompare.ContractCorpus;

namespace RpcCompare.Description.Tests;

public class OperationFormTests
{
    [Fact]
    public void SyncAndTaskMethods_OfOneName_AreOneOperation()
    {
        var forms = ContractLoader.Read(typeof(ISyncAndTaskForms));

        var add = Assert.Single(forms.Operations);
        Assert.Equal("Add", add.Name);
        Assert.Equal(OperationForms.Synchronous | OperationForms.Task, add.Forms);
        Assert.Equal("Add", add.SyncMethod!.Name);
        Assert.Equal("AddAsync", add.TaskMethod!.Name);
        Assert.Equal(2, add.Methods.Count());
    }

    [Fact]
    public void ValueTaskMethod_IsNamedAsWcfNamesTaskMethods()
    {
        var add = ContractLoader.Read(typeof(IValueTaskForms)).Operation("Add");

        Assert.Equal(OperationForms.ValueTask, add.Forms);
        Assert.Equal("AddAsync", add.ValueTaskMethod!.Name);
        Assert.Null(add.SyncMethod);
        Assert.Equal("urn:corpus:forms/IValueTaskForms/Add", add.Action);
        Assert.Equal("urn:corpus:forms/IValueTaskForms/AddResponse", add.ReplyAction);
        Assert.Equal(new ReturnDescription("AddResult", typeof(int)), add.Return);
    }

    [Fact]
    public void CancellationToken_IsNotAParameter()
    {
        var add = ContractLoader.Read(typeof(IValueTaskForms)).Operation("Add");

        Assert.Equal(["a", "b"], add.Parameters.Select(p => p.Name));
    }

    [Fact]
    public void NonGenericValueTask_HasNoReturnValue()
    {
        var clear = ContractLoader.Read(typeof(IValueTaskForms)).Operation("Clear");

        Assert.Null(clear.Return);
        Assert.Equal(OperationForms.ValueTask, clear.Forms);
    }

    [Fact]
    public void ValueTaskMethod_WithTheSameSignature_JoinsTheSynchronousForm()
    {
        var forms = ContractLoader.Read(typeof(IValueTaskForms));
        var multiply = forms.Operation("Multiply");

        Assert.Equal(OperationForms.Synchronous | OperationForms.ValueTask, multiply.Forms);
        Assert.Equal("MultiplyAsync", multiply.ValueTaskMethod!.Name);
        Assert.Single(forms.Operations, o => o.Name == "Multiply");
        Assert.Same(multiply, forms.OperationOf(typeof(IValueTaskForms).GetMethod("MultiplyAsync")!));
    }

    [Fact]
    public void ValueTaskMethod_WithAnExplicitName_KeepsIt()
    {
        var renamed = ContractLoader.Read(typeof(IValueTaskForms)).Operation("Renamed");

        Assert.Equal("urn:corpus:forms/IValueTaskForms/Renamed", renamed.Action);
        Assert.Equal(typeof(string), renamed.Return!.Type);
        Assert.Equal(["Add", "Clear", "Multiply", "Renamed"], ContractLoader.Read(typeof(IValueTaskForms)).Operations.Select(o => o.Name).Order());
    }

    [Fact]
    public void ValueTaskMethod_ClashingWithAnotherSignature_IsRefusedAsWcfRefusesTwoOperationsWithOneName()
    {
        var error = Assert.Throws<ContractLoadException>(() => ContractLoader.Read(typeof(IValueTaskClash)));

        Assert.Equal(typeof(IValueTaskClash), error.Contract);
        Assert.StartsWith("Cannot have two operations in the same contract with the same name, methods Add and AddAsync in type RpcCompare.ContractCorpus.IValueTaskClash violate this rule.", error.Reason);
    }

    [Fact]
    public void BeginEndPair_IsOneOperationNamedWithoutBegin()
    {
        var lookup = ContractLoader.Read(typeof(IAsyncPattern)).Operation("Lookup");

        Assert.Equal(OperationForms.AsyncPattern, lookup.Forms);
        Assert.Equal("EndLookup", lookup.EndMethod!.Name);
        Assert.Equal(["key"], lookup.Inputs.Select(p => p.Name));
        Assert.Equal(typeof(string), lookup.Return!.Type);
    }

    [Fact]
    public void ValueTaskMethod_WithoutAsync_KeepsItsName_AndANamedResultKeepsItsPart()
    {
        var names = ContractLoader.Read(typeof(IValueTaskNames));

        Assert.Equal(["Compute", "Explicit", "Total"], names.Operations.Select(o => o.Name).Order());
        Assert.Equal("urn:corpus:forms/IValueTaskNames/Compute", names.Operation("Compute").Action);
        Assert.Equal("urn:corpus:forms/IValueTaskNames/ComputeResponse", names.Operation("Compute").ReplyAction);
        Assert.Equal("ComputeResult", names.Operation("Compute").Return!.PartName);
        Assert.Equal(new ReturnDescription("sum", typeof(int)), names.Operation("Total").Return);
        Assert.Equal("urn:corpus:forms/IValueTaskNames/TotalResponse", names.Operation("Total").ReplyAction);
        Assert.Equal("urn:corpus:explicit", names.Operation("Explicit").Action);
        Assert.Equal("ExplicitResult", names.Operation("Explicit").Return!.PartName);
    }

    [Fact]
    public void BeginEndPair_TakesOutParametersFromTheEndMethod()
    {
        var split = ContractLoader.Read(typeof(IAsyncPatternWithOut)).Operation("Split");

        Assert.Equal([("value", ParameterDirection.In), ("remainder", ParameterDirection.Out)], split.Parameters.Select(p => (p.Name, p.Direction)));
        Assert.Equal(typeof(int), split.Outputs[0].Type);
        Assert.Equal(typeof(int), split.Return!.Type);
    }
}
