using System.Runtime.Serialization;
using System.ServiceModel;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.Bindings.InProc;
using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// A team's own contract is hosted with one registration line, no binding code, on every
/// generic binding (the framework bindings and inproc); the raw pipe baseline is hand-written
/// per contract by design and says so.
/// </summary>
public sealed class SecondContractTests
{
    [Fact]
    public async Task AddRpcService_RegistersContractForGenericBindings()
    {
        await using var services = new ServiceCollection()
            .AddRpcService<IGreeter, Greeter>()
            .BuildServiceProvider();
        var factory = new RpcClientFactory([new InProcClientProvider(services), new PipesClientProvider()]);

        var greeter = factory.Create<IGreeter>(BindingNames.InProc, "");
        var reply = await greeter.GreetAsync(new GreetRequest { Name = "Ada" });

        Assert.Equal("Hello, Ada", reply.Message);
        Assert.Equal(new RpcServiceDescriptor(typeof(IGreeter), typeof(Greeter)), Assert.Single(services.GetServices<RpcServiceDescriptor>()));
    }

    [Fact]
    public async Task DefaultFactory_GivenAContainer_CallsAnyRegisteredContractInProcess()
    {
        await using var services = new ServiceCollection().AddRpcService<IGreeter, Greeter>().BuildServiceProvider();
        using var factory = RpcClientFactory.CreateDefault(inProcServices: services);

        var greeter = factory.Create<IGreeter>(BindingNames.InProc, "");

        Assert.Same(services.GetRequiredService<IGreeter>(), greeter);
        Assert.Equal("Hello, Ada", (await greeter.GreetAsync(new GreetRequest { Name = "Ada" })).Message);
    }

    [Fact]
    public void DefaultFactory_WithoutAContainer_CarriesOnlyTheProductContractsInProcess()
    {
        using var factory = RpcClientFactory.CreateDefault();

        var error = Assert.Throws<NotSupportedException>(() => factory.Create<IGreeter>(BindingNames.InProc, "/tmp"));

        Assert.Equal(
            "binding inproc cannot carry contract rpccompare.tests.Greeter (IGreeter): without a container (RpcClientFactory.CreateDefault(inProcServices: ...)) inproc serves only RpcCompare's own contracts",
            error.Message);
    }

    public static TheoryData<string> FrameworkBindings() => [.. BindingNames.All.Except([BindingNames.Pipes, BindingNames.InProc])];

    [Theory]
    [MemberData(nameof(FrameworkBindings))]
    public async Task AddRpcService_ServesTheContractOnEveryFrameworkBinding(string binding)
    {
        await using var host = await InProcessHost.StartAsync(configureServices: services => services.AddRpcService<IGreeter, Greeter>());
        var greeter = RpcClientFactory.CreateDefault().Create<IGreeter>(binding, host.Address(binding));

        var reply = await greeter.GreetAsync(new GreetRequest { Name = "Ada" }).Bounded();

        Assert.Equal("Hello, Ada", reply.Message);
        await RpcClientFactory.ReleaseAsync(greeter);
    }

    [Fact]
    public void AddRpcService_Twice_RegistersOnce()
    {
        var services = new ServiceCollection().AddRpcService<IGreeter, Greeter>().AddRpcService<IGreeter, Greeter>();

        Assert.Single(services, d => d.ServiceType == typeof(RpcServiceDescriptor));
    }

    [Fact]
    public void PipesBinding_RefusesAContractItWasNotWrittenFor()
    {
        var factory = new RpcClientFactory([new PipesClientProvider()]);

        var error = Assert.Throws<NotSupportedException>(() => factory.Create<IGreeter>(BindingNames.Pipes, "/tmp/x.sock"));

        Assert.Equal("binding pipes cannot carry contract rpccompare.tests.Greeter (IGreeter): the pipes binding is the hand-written baseline for RpcCompare's own contracts", error.Message);
    }

    [ServiceContract(Name = "rpccompare.tests.Greeter", Namespace = "urn:rpccompare:tests")]
    public interface IGreeter
    {
        [OperationContract]
        Task<GreetReply> GreetAsync(GreetRequest request);
    }

    [DataContract]
    public sealed class GreetRequest
    {
        [DataMember(Order = 1)]
        public string Name { get; set; } = "";
    }

    [DataContract]
    public sealed class GreetReply
    {
        [DataMember(Order = 1)]
        public string Message { get; set; } = "";
    }

    public sealed class Greeter : IGreeter
    {
        public Task<GreetReply> GreetAsync(GreetRequest request) => Task.FromResult(new GreetReply { Message = $"Hello, {request.Name}" });
    }
}
