using Microsoft.Extensions.DependencyInjection;

namespace RpcCompare.Bindings.Tests;

public sealed class RpcServiceRegistrationTests
{
    [Fact]
    public void AContract_IsServedByOneImplementationInstance_ForEveryBinding()
    {
        using var provider = new ServiceCollection().AddRpcService<IGreeter, Greeter>().BuildServiceProvider();

        Assert.Same(provider.GetRequiredService<Greeter>(), provider.GetRequiredService<IGreeter>());
        Assert.Equal([new RpcServiceDescriptor(typeof(IGreeter), typeof(Greeter))], provider.GetServices<RpcServiceDescriptor>());
    }

    [Fact]
    public void RegisteringAContractTwice_ServesItOnce()
    {
        var services = new ServiceCollection().AddRpcService<IGreeter, Greeter>().AddRpcService<IGreeter, Greeter>();

        Assert.Single(services, d => d.ServiceType == typeof(RpcServiceDescriptor));
        Assert.Single(services, d => d.ServiceType == typeof(IGreeter));
    }

    [Fact]
    public void TwoContracts_AreBothServed()
    {
        using var provider = new ServiceCollection().AddRpcService<IGreeter, Greeter>().AddRpcService<IClock, Clock>().BuildServiceProvider();

        Assert.Equal([typeof(IGreeter), typeof(IClock)], provider.GetServices<RpcServiceDescriptor>().Select(d => d.Contract));
    }

    [Fact]
    public void AClassAsContract_IsRefused_SayingAContractIsAnInterface()
    {
        var error = Assert.Throws<ArgumentException>(() => new ServiceCollection().AddRpcService<Greeter, Greeter>());

        Assert.StartsWith($"{typeof(Greeter)} is not an interface; a service contract must be one.", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void NoServiceCollection_IsAProgrammingError()
    {
        Assert.Throws<ArgumentNullException>(() => RpcServiceCollectionExtensions.AddRpcService<IGreeter, Greeter>(null!));
    }

    public interface IGreeter
    {
        string Greet(string name);
    }

    public interface IClock
    {
        long Now();
    }

    public sealed class Greeter : IGreeter
    {
        public string Greet(string name) => $"hello, {name}";
    }

    public sealed class Clock : IClock
    {
        public long Now() => 42;
    }
}
