using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;

namespace RpcCompare.Description.Tests;

public class OperationNamingTests
{
    [Fact]
    public void Calculator_HasWcfsNamesAndActions()
    {
        var calculator = ContractLoader.Read(typeof(ICalculator));

        Assert.Equal("ICalculator", calculator.Name);
        Assert.Equal("http://Microsoft.ServiceModel.Samples", calculator.Namespace);
        Assert.Equal(typeof(ICalculator).FullName, calculator.ConfigurationName);
        Assert.Equal(["Add", "Divide", "Multiply", "Subtract"], calculator.Operations.Select(o => o.Name).Order());
        var add = calculator.Operation("Add");
        Assert.Equal("http://Microsoft.ServiceModel.Samples/ICalculator/Add", add.Action);
        Assert.Equal("http://Microsoft.ServiceModel.Samples/ICalculator/AddResponse", add.ReplyAction);
        Assert.Equal(typeof(ICalculator), add.DeclaringContract);
        Assert.Equal(OperationForms.Synchronous, add.Forms);
    }

    [Fact]
    public void DefaultNamespace_IsTempuri()
    {
        var service = ContractLoader.Read(typeof(IService1));

        Assert.Equal("http://tempuri.org/", service.Namespace);
        Assert.Equal("http://tempuri.org/IService1/GetData", service.Operation("GetData").Action);
        Assert.Equal("http://tempuri.org/IService1/GetDataResponse", service.Operation("GetData").ReplyAction);
    }

    [Fact]
    public void EmptyNamespace_GivesUrnActions()
    {
        var touch = ContractLoader.Read(typeof(IWithoutNamespace)).Operation("Touch");

        Assert.Equal("urn:IWithoutNamespace/Touch", touch.Action);
    }

    [Fact]
    public void TaskMethod_LosesItsAsyncSuffix_SynchronousMethodKeepsIt()
    {
        var renamed = ContractLoader.Read(typeof(IRenamedOperations));

        Assert.Equal(OperationForms.Task, renamed.Operation("Total").Forms);
        Assert.Equal("urn:corpus:names/Arithmetic/Total", renamed.Operation("Total").Action);
        Assert.Equal(OperationForms.Synchronous, renamed.Operation("CountAsync").Forms);
    }

    [Fact]
    public void ExplicitNameAndActions_AreHonoured()
    {
        var renamed = ContractLoader.Read(typeof(IRenamedOperations));

        Assert.Equal("Arithmetic", renamed.Name);
        var sum = renamed.Operation("Sum");
        Assert.Equal("urn:corpus:sum", sum.Action);
        Assert.Equal("urn:corpus:sum-reply", sum.ReplyAction);
        Assert.Equal("Add", sum.SyncMethod!.Name);
        Assert.Equal("urn:corpus:names/Arithmetic/SumOfDoubles", renamed.Operation("SumOfDoubles").Action);
        Assert.Equal("SumResult", sum.Return!.PartName);
    }

    [Fact]
    public void ProductContract_KeepsTheActionsItsClientsUse()
    {
        var files = ContractLoader.Read(typeof(IFileService));

        Assert.Equal(ServiceNames.FileService, files.Name);
        Assert.Equal(["Ping", "ReadDirectory", "WriteAt"], files.Operations.Select(o => o.Name).Order());
        Assert.Equal($"{ServiceNames.Namespace}/{ServiceNames.FileService}/Ping", files.Operation("Ping").Action);
        Assert.Equal(typeof(RpcFault), Assert.Single(files.Operation("Ping").Faults).DetailType);
        Assert.Equal(ServiceNames.FaultAction, files.Operation("Ping").Faults[0].Action);
    }

    [Fact]
    public void Operation_NamesTheContract_WhenTheNameIsUnknown()
    {
        var error = Assert.Throws<KeyNotFoundException>(() => ContractLoader.Read(typeof(ICalculator)).Operation("Modulo"));

        Assert.Equal("contract ICalculator has no operation named 'Modulo'", error.Message);
    }

    [Fact]
    public void OperationOf_FindsEveryFormOfAnOperation_AndNothingElse()
    {
        var forms = ContractLoader.Read(typeof(ISyncAndTaskForms));
        var add = forms.Operation("Add");

        Assert.Same(add, forms.OperationOf(typeof(ISyncAndTaskForms).GetMethod("Add")!));
        Assert.Same(add, forms.OperationOf(typeof(ISyncAndTaskForms).GetMethod("AddAsync")!));
        Assert.Null(forms.OperationOf(typeof(object).GetMethod("ToString")!));
    }

    [Fact]
    public void Load_ReturnsOneDescriptionPerContract()
    {
        Assert.Same(ContractLoader.Load(typeof(ICalculator)), ContractLoader.Load(typeof(ICalculator)));
        Assert.NotSame(ContractLoader.Read(typeof(ICalculator)), ContractLoader.Load(typeof(ICalculator)));
        Assert.Equal("ICalculator (RpcCompare.ContractCorpus.ICalculator)", ContractLoader.Load(typeof(ICalculator)).ToString());
    }
}
