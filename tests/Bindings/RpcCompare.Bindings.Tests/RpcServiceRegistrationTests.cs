using System.ServiceModel;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Description;

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
    public void ByType_ServesLikeTheGenericForm()
    {
#pragma warning disable CA2263 // The by-type form is the one under test.
        using var provider = new ServiceCollection().AddRpcService(typeof(IGreeter), typeof(Greeter)).BuildServiceProvider();
#pragma warning restore CA2263

        Assert.Same(provider.GetRequiredService<Greeter>(), provider.GetRequiredService<IGreeter>());
        Assert.Equal([new RpcServiceDescriptor(typeof(IGreeter), typeof(Greeter))], provider.GetServices<RpcServiceDescriptor>());
    }

    [Theory]
    [InlineData(typeof(Clock))]
    [InlineData(typeof(IGreeter))]
    public void ByType_AnImplementationThatIsNoClassOfTheContract_IsRefused(Type implementation)
    {
        var services = new ServiceCollection();

        var error = Assert.Throws<ArgumentException>(() => services.AddRpcService(typeof(IGreeter), implementation));

        Assert.StartsWith($"{implementation} is not a class implementing {typeof(IGreeter)}.", error.Message, StringComparison.Ordinal);
        Assert.Empty(services);
    }

    [Fact]
    public void AnInterfaceWcfCannotRead_IsRefusedAtRegistration_WithWcfsReason()
    {
        var services = new ServiceCollection();

        var error = Assert.Throws<ContractLoadException>(() => services.AddRpcService<INotAContract, NotAContract>());

        Assert.Equal(typeof(INotAContract), error.Contract);
        Assert.Contains("that type is not a ServiceContract", error.Reason, StringComparison.Ordinal);
        Assert.Empty(services);
    }

    [Fact]
    public void TheDescriptor_DescribesItsContract()
    {
        var descriptor = new RpcServiceDescriptor(typeof(IGreeter), typeof(Greeter));

        Assert.Equal("Greet", Assert.Single(descriptor.Description.Operations).Name);
    }

    [Fact]
    public void NoServiceCollection_IsAProgrammingError()
    {
        Assert.Throws<ArgumentNullException>(() => RpcServiceCollectionExtensions.AddRpcService<IGreeter, Greeter>(null!));
    }

    [ServiceContract]
    public interface IGreeter
    {
        [OperationContract]
        string Greet(string name);
    }

    [ServiceContract]
    public interface IClock
    {
        [OperationContract]
        long Now();
    }

    /// <summary>No [ServiceContract]: WCF's loader refuses it.</summary>
    public interface INotAContract
    {
        long Now();
    }

    public sealed class NotAContract : INotAContract
    {
        public long Now() => 0;
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
