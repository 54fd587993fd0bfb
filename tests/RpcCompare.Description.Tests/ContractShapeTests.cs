using System.ServiceModel;
using RpcCompare.ContractCorpus;

namespace RpcCompare.Description.Tests;

public class ContractShapeTests
{
    [Fact]
    public void DeclaredFault_HasWcfsNameAndAction()
    {
        var fault = Assert.Single(ContractLoader.Read(typeof(IOrderService)).Operation("PlaceOrder").Faults);

        Assert.Equal(new FaultDescription(typeof(OrderFault), "OrderFaultFault", "urn:corpus:orders", "urn:corpus:orders/IOrderService/PlaceOrderOrderFaultFault"), fault);
        Assert.Empty(ContractLoader.Read(typeof(IOrderService)).Operation("CancelOrder").Faults);
    }

    [Fact]
    public void InheritedOperations_ComeFirst_AndKeepTheirContractsActions()
    {
        var shapes = ContractLoader.Read(typeof(IShapes));

        Assert.Equal("Area", shapes.Operations[0].Name);
        Assert.Equal(typeof(IBaseShapes), shapes.Operations[0].DeclaringContract);
        Assert.Equal("urn:corpus:base/IBaseShapes/Area", shapes.Operations[0].Action);
        Assert.Equal(["Largest", "Scale"], shapes.Operations.Skip(1).Select(o => o.Name).Order());
        Assert.Equal("urn:corpus:shapes/IShapes/Largest", shapes.Operation("Largest").Action);
    }

    [Fact]
    public void ServiceKnownTypes_ApplyFromTheContractAndTheOperation()
    {
        var shapes = ContractLoader.Read(typeof(IShapes));

        Assert.Equal([typeof(Triangle)], shapes.Operation("Largest").KnownTypes);
        Assert.Equal([typeof(Hexagon), typeof(Triangle)], shapes.Operation("Scale").KnownTypes.OrderBy(t => t.Name));
        // WCF applies a contract's [ServiceKnownType] to the operations it inherits as well.
        Assert.Equal([typeof(Triangle)], shapes.Operation("Area").KnownTypes);
        Assert.Empty(ContractLoader.Read(typeof(IBaseShapes)).Operation("Area").KnownTypes);
    }

    [Fact]
    public void CallbackContract_IsDescribedApart_WithItsSession()
    {
        var chat = ContractLoader.Read(typeof(IChat));

        Assert.Equal(SessionMode.Required, chat.SessionMode);
        Assert.Equal(typeof(IChatCallback), chat.CallbackContractType);
        Assert.Equal(["Join", "Say"], chat.Operations.Select(o => o.Name).Order());
        var heard = Assert.Single(chat.CallbackOperations);
        Assert.Equal("Heard", heard.Name);
        Assert.True(heard.IsOneWay);
        Assert.Equal(["who", "text"], heard.Inputs.Select(p => p.Name));
        Assert.Same(heard, chat.OperationOf(typeof(IChatCallback).GetMethod("Heard")!));
    }

    [Fact]
    public void ContractWithoutCallback_HasNone()
    {
        var calculator = ContractLoader.Read(typeof(ICalculator));

        Assert.Null(calculator.CallbackContractType);
        Assert.Empty(calculator.CallbackOperations);
        Assert.Equal(SessionMode.Allowed, calculator.SessionMode);
    }
}
