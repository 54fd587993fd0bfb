using System.ServiceModel;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Carrying;
using RpcCompare.ContractCorpus;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// Contracts written as WCF's samples and templates write them, hosted beside the product's own:
/// every binding carries them or the host refuses to start, naming binding, operation, contract
/// and reason; never a first-call surprise.
/// </summary>
public sealed class TeamContractTests
{
    private static readonly string[] WcfAndPipes = [BindingNames.WcfNetTcp, BindingNames.WcfUds, BindingNames.WcfHttp, BindingNames.Pipes];

    public static TheoryData<string> WcfBindings() => [BindingNames.WcfNetTcp, BindingNames.WcfUds, BindingNames.WcfHttp];

    public static TheoryData<string> FrameworkBindings() => [BindingNames.WcfNetTcp, BindingNames.WcfUds, BindingNames.WcfHttp, BindingNames.GrpcTcp, BindingNames.GrpcUds];

    [Fact]
    public async Task HostWithAMessageContract_AndGrpc_RefusesToStart_NamingTheOperation()
    {
        var error = await Assert.ThrowsAsync<ContractNotCarriedException>(() =>
            InProcessHost.StartAsync(configureServices: s => s.AddRpcService<ITypedMessages, TypedMessages>(), bindings: [BindingNames.WcfNetTcp, BindingNames.GrpcTcp]));

        Assert.Equal(
            "binding grpc-tcp cannot carry operation Place of contract ITypedMessages: [MessageContract] messages have no gRPC mapping",
            Assert.Single(error.Refusals).ToString());
    }

    [Fact]
    public async Task HostWithSyncAndTaskForms_AndWcf_RefusesToStart_BeforeCoreWcfIsAsked()
    {
        var error = await Assert.ThrowsAsync<ContractNotCarriedException>(() =>
            InProcessHost.StartAsync(configureServices: s => s.AddRpcService<ISyncAndTaskForms, Adder>(), bindings: [BindingNames.WcfNetTcp]));

        var refusal = Assert.Single(error.Refusals);
        Assert.Equal((BindingNames.WcfNetTcp, "ISyncAndTaskForms", "Add"), (refusal.Binding, refusal.Contract, refusal.Operation));
    }

    [Theory]
    [MemberData(nameof(WcfBindings))]
    public async Task Calculator_AnswersOnTheWcfBindings_BesidePipes(string binding)
    {
        await using var host = await InProcessHost.StartAsync(configureServices: s => s.AddRpcService<ICalculator, Calculator>(), bindings: WcfAndPipes);
        using var factory = RpcClientFactory.CreateDefault();
        var calculator = factory.Create<ICalculator>(binding, host.Address(binding));

        Assert.Equal((5.0, -1.0, 6.0, 1.5), (calculator.Add(2, 3), calculator.Subtract(2, 3), calculator.Multiply(2, 3), calculator.Divide(3, 2)));
        await RpcClientFactory.ReleaseAsync(calculator);
    }

    [Theory]
    [MemberData(nameof(FrameworkBindings))]
    public async Task TypedFault_TheServiceThrows_ReachesTheClientWithItsDetail(string binding)
    {
        await using var host = await InProcessHost.StartAsync(configureServices: s => s.AddRpcService<IOrderService, OrderService>(), bindings: [binding]);
        using var factory = RpcClientFactory.CreateDefault();
        var orders = factory.Create<IOrderService>(binding, host.Address(binding));
        Order Of(int quantity) => new() { Customer = "Ada", Lines = [new OrderLine { Sku = "A-1", Quantity = 2 }, new OrderLine { Sku = "B-2", Quantity = quantity }] };

        var id = await orders.PlaceOrderAsync(Of(1)).Bounded();
        var fault = await Assert.ThrowsAsync<FaultException<OrderFault>>(() => orders.PlaceOrderAsync(Of(0))).Bounded();
        var next = await orders.PlaceOrderAsync(Of(3)).Bounded();

        Assert.Equal(("quantity must be at least 1", "B-2"), (fault.Detail.Reason, fault.Detail.Sku));
        Assert.Equal("invalid order line", fault.Reason.ToString());
        Assert.Equal(id + 1, next);
        await RpcClientFactory.ReleaseAsync(orders);
    }

    [Fact]
    public async Task TeamContractOnly_InProcess_ThroughTheFactory()
    {
        await using var services = new ServiceCollection().AddRpcService<ICalculator, Calculator>().BuildServiceProvider();
        using var factory = RpcClientFactory.CreateDefault(inProcServices: services);

        Assert.Equal(5.0, factory.Create<ICalculator>(BindingNames.InProc, "").Add(2, 3));
    }

    private sealed class Adder : ISyncAndTaskForms
    {
        public int Add(int a, int b) => a + b;

        public Task<int> AddAsync(int a, int b) => Task.FromResult(a + b);
    }
}
