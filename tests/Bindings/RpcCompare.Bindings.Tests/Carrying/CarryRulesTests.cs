using RpcCompare.Bindings.Carrying;
using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Tests.Carrying;

public sealed class CarryRulesTests
{
    [Fact]
    public void Refusal_NamesBindingOperationContractAndReason()
    {
        Assert.Equal(
            "binding grpc-tcp cannot carry operation Add of contract ICalculator: why",
            new CarryRefusal("grpc-tcp", "ICalculator", "Add", "why").ToString());
        Assert.Equal(
            "binding wcf-http cannot carry contract IChat: why",
            new CarryRefusal("wcf-http", "IChat", null, "why").ToString());
    }

    [Fact]
    public void OneRefusal_IsTheWholeMessage_SeveralAreListed()
    {
        CarryRefusal a = new("b", "C", "A", "x"), b = new("b", "C", null, "y");

        Assert.Equal(a.ToString(), new ContractNotCarriedException([a]).Message);
        Assert.Equal(
            $"2 shapes are not carried:{Environment.NewLine}  {a}{Environment.NewLine}  {b}",
            new ContractNotCarriedException([a, b]).Message);
        Assert.Equal([a, b], new ContractNotCarriedException([a, b]).Refusals);
    }

    [Fact]
    public void Everything_CarriesEveryContractThatLoads()
    {
        Assert.Empty(CarryRules.Everything.Check("inproc", typeof(IChat)));
        Assert.Empty(CarryRules.Everything.Check("inproc", typeof(IValueTaskForms)));
    }

    [Fact]
    public void AContractThatDoesNotLoad_IsRefusedAsAWhole_WithWcfsReason()
    {
        var refusal = Assert.Single(CarryRules.Everything.Check("x", typeof(IInParameter)));
        var reason = Assert.Throws<ContractLoadException>(() => ContractLoader.Load(typeof(IInParameter))).Reason;

        Assert.Equal(new CarryRefusal("x", "IInParameter", null, $"it does not load as a service contract: {reason}"), refusal);
    }

    [Fact]
    public void Refusals_NameTheContractByItsWcfName_AndItsInterface()
    {
        var refusal = Assert.Single(new RefuseEveryOperation().Check("x", typeof(IFileService)), r => r.Operation == "Ping");

        Assert.Equal("rpccompare.v1.FileService (IFileService)", refusal.Contract);
        Assert.Equal("ICalculator", new RefuseEveryOperation().Check("x", typeof(ICalculator))[0].Contract);
    }

    [Fact]
    public void AWholeContractRefusal_IsNamedTheSameWay_EvenForATypeThatIsNoContract()
    {
        Assert.Equal(new CarryRefusal("b", "rpccompare.v1.FileService (IFileService)", null, "r"), CarryRefusal.OfContract("b", typeof(IFileService), "r"));
        Assert.Equal(new CarryRefusal("b", "IDisposable", null, "r"), CarryRefusal.OfContract("b", typeof(IDisposable), "r"));
    }

    [Fact]
    public void ContractRefusals_ComeFirst_ThenOperationsInTheirOrder()
    {
        var refusals = new RefuseEveryOperation { RefuseContracts = true }.Check("x", typeof(IShapes));

        Assert.Equal([null, "Area", "Largest", "Scale"], refusals.Select(r => r.Operation).Take(1).Concat(refusals.Skip(1).Select(r => r.Operation).Order()));
        Assert.Equal("contract", refusals[0].Reason);
        Assert.Equal("Area", refusals[1].Operation);
    }

    [Fact]
    public void EachContract_IsCheckedOncePerBinding()
    {
        var rules = new RefuseEveryOperation();

        Assert.Same(rules.Check("x", typeof(ICalculator)), rules.Check("x", typeof(ICalculator)));
        Assert.Equal("y", rules.Check("y", typeof(ICalculator))[0].Binding);
    }

    [Fact]
    public void ThrowUnlessCarried_ListsEveryContractsRefusals_OrNothing()
    {
        var rules = new RefuseEveryOperation();

        rules.ThrowUnlessCarried("x", []);
        CarryRules.Everything.ThrowUnlessCarried("x", [typeof(ICalculator), typeof(IShapes)]);
        var error = Assert.Throws<ContractNotCarriedException>(() => rules.ThrowUnlessCarried("x", [typeof(ICalculator), typeof(IShapes)]));
        Assert.Equal(7, error.Refusals.Count);
        Assert.Equal(["ICalculator", "IShapes"], error.Refusals.Select(r => r.Contract).Distinct());
    }

    private sealed class RefuseEveryOperation : CarryRules
    {
        public bool RefuseContracts { get; init; }

        protected override IEnumerable<string> RefuseContract(ServiceContractDescription contract) => RefuseContracts ? ["contract"] : [];

        protected override IEnumerable<string> RefuseOperation(ServiceContractDescription contract, OperationDescription operation) => [operation.Name];
    }
}
