using RpcCompare.Bindings;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Push;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Client.Tests;

/// <summary>
/// What the factory and the session decide themselves, with stand-in providers: which provider a
/// call reaches, the refusals it makes before any provider is asked, and what it releases.
/// </summary>
public sealed class FactoryRoutingTests
{
    private readonly FakeProvider _pipes = new(BindingNames.Pipes, carries: typeof(IFileService));
    private readonly FakePushProvider _grpc = new(BindingNames.GrpcTcp, ["stream", "multiplexed"]);
    private readonly FakeHealthProvider _uds = new(BindingNames.GrpcUds);

    private RpcClientFactory Factory() => new([_pipes, _grpc, _uds]);

    [Fact]
    public void NullProviders_AreRefused()
    {
        Assert.Equal("providers", Assert.Throws<ArgumentNullException>(() => new RpcClientFactory(null!)).ParamName);
    }

    [Fact]
    public void Bindings_AreTheProvidersOffered_InReportOrder()
    {
        using var factory = Factory();

        Assert.Equal([BindingNames.GrpcTcp, BindingNames.GrpcUds, BindingNames.Pipes], factory.Bindings);
        Assert.Equal([BindingNames.GrpcTcp, BindingNames.GrpcUds], factory.PushBindings);
    }

    [Fact]
    public void Create_ReachesTheNamedProvider_WithTheAddress()
    {
        using var factory = Factory();

        var proxy = factory.Create<IFileService>(BindingNames.Pipes, "/tmp/x.sock");

        Assert.Same(_pipes.LastProxy, proxy);
        Assert.Equal("/tmp/x.sock", _pipes.LastAddress);
    }

    [Fact]
    public void Create_OfAContractTheBindingCannotCarry_IsRefusedBeforeTheProviderIsAsked()
    {
        using var factory = Factory();

        var error = Assert.Throws<NotSupportedException>(() => factory.Create<IPayloadService>(BindingNames.Pipes, "/tmp/x.sock"));

        Assert.Equal("binding pipes cannot carry contract IPayloadService: a fake carries one contract", error.Message);
        Assert.Null(_pipes.LastAddress);
    }

    [Fact]
    public async Task EveryEntryPoint_RefusesABindingNotOffered_NamingTheOfferedOnes()
    {
        using var factory = Factory();
        const string offered = "Bindings offered: pipes, grpc-tcp, grpc-uds.";

        Assert.Contains(offered, Assert.Throws<ArgumentException>(() => factory.Create<IFileService>(BindingNames.WcfHttp, "x")).Message, StringComparison.Ordinal);
        Assert.Contains(offered, Assert.Throws<ArgumentException>(() => factory.PushVariants(BindingNames.WcfHttp)).Message, StringComparison.Ordinal);
        Assert.Contains(offered, Assert.Throws<ArgumentException>(() => factory.CreatePushClient(BindingNames.WcfHttp, "x")).Message, StringComparison.Ordinal);
        Assert.Contains(offered, (await Assert.ThrowsAsync<ArgumentException>(() => factory.CheckHealthAsync(BindingNames.WcfHttp, "x"))).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void PushVariants_AreTheProvidersOwn_OrNoneForABindingThatCannotPush()
    {
        using var factory = Factory();

        Assert.Equal(["stream", "multiplexed"], factory.PushVariants(BindingNames.GrpcTcp));
        Assert.Empty(factory.PushVariants(BindingNames.Pipes));
    }

    [Fact]
    public async Task CreatePushClient_PassesAddressAndVariant_AndABindingThatCannotPushSaysWhichCan()
    {
        using var factory = Factory();

        await using var client = factory.CreatePushClient(BindingNames.GrpcTcp, "http://127.0.0.1:1", "multiplexed");
        var error = Assert.Throws<NotSupportedException>(() => factory.CreatePushClient(BindingNames.Pipes, "x"));

        Assert.Equal(("http://127.0.0.1:1", "multiplexed"), _grpc.LastRequest);
        Assert.Equal("Binding 'pipes' cannot push; bindings that can: grpc-tcp, grpc-uds.", error.Message);
    }

    [Fact]
    public async Task CheckHealth_AsksTheProbe_AndABindingWithoutOneSaysWhichHaveIt()
    {
        using var factory = Factory();

        var status = await factory.CheckHealthAsync(BindingNames.GrpcUds, "/tmp/g.sock", "svc");
        var error = await Assert.ThrowsAsync<NotSupportedException>(() => factory.CheckHealthAsync(BindingNames.Pipes, "x"));

        Assert.Equal("SERVING /tmp/g.sock svc", status);
        Assert.Equal("Binding 'pipes' has no standard health service; grpc-tcp and grpc-uds have grpc.health.v1.", error.Message);
    }

    [Fact]
    public void Dispose_ClosesEveryDisposableProvider()
    {
        Factory().Dispose();

        Assert.Equal(1, _pipes.Disposed);
        Assert.Equal(1, _uds.Disposed);
    }

    [Fact]
    public async Task ReleaseAsync_DisposesAProxyThatHoldsAConnection_AndIgnoresOneThatDoesNot()
    {
        var proxy = new FakeProxy();

        await RpcClientFactory.ReleaseAsync(proxy);
        await RpcClientFactory.ReleaseAsync(new object());

        Assert.Equal(1, proxy.Released);
    }

    [Fact]
    public void Session_RefusesANullFactory()
    {
        Assert.Throws<ArgumentNullException>(() => new RpcClientSession(null!, BindingNames.Pipes, "x"));
    }

    [Fact]
    public async Task Session_CreatesEachContractsProxyOnce_AndReleasesEveryOneOnce()
    {
        using var factory = Factory();
        var session = new RpcClientSession(factory, BindingNames.Pipes, "/tmp/x.sock");

        var first = session.Get<IFileService>();
        var again = session.Get<IFileService>();
        await session.DisposeAsync();
        await session.DisposeAsync();

        Assert.Same(first, again);
        Assert.Equal(1, _pipes.Created);
        Assert.Equal(1, ((FakeProxy)(object)first).Released);
        Assert.Equal((BindingNames.Pipes, "/tmp/x.sock"), (session.Binding, session.Address));
    }

    private class FakeProvider(string name, Type? carries = null) : IBindingClientProvider, IDisposable
    {
        public string Name { get; } = name;

        public string? LastAddress { get; private set; }

        public object? LastProxy { get; private set; }

        public int Created { get; private set; }

        public int Disposed { get; private set; }

        public IReadOnlyList<CarryRefusal> Check(Type contract) =>
            contract == carries ? [] : [new CarryRefusal(Name, contract.Name, null, "a fake carries one contract")];

        public TContract Create<TContract>(string address)
            where TContract : class
        {
            LastAddress = address;
            Created++;
            var proxy = (TContract)(object)new FakeProxy();
            LastProxy = proxy;
            return proxy;
        }

        public void Dispose() => Disposed++;
    }

    /// <summary>Disposable, can push and has a health service.</summary>
    private sealed class FakeHealthProvider(string name) : FakeProvider(name), IBindingHealthProbe, IPushClientProvider
    {
        public IReadOnlyList<string> PushVariants { get; } = ["stream"];

        public IPushClient CreatePushClient(string address, string? variant = null) => new FakePushClient();

        public Task<string> CheckHealthAsync(string address, string service, CancellationToken cancellationToken = default) =>
            Task.FromResult($"SERVING {address} {service}");
    }

    /// <summary>Not disposable (the factory must not assume every provider is); can push and has a health service.</summary>
    private sealed class FakePushProvider(string name, IReadOnlyList<string> variants) : IBindingClientProvider, IPushClientProvider, IBindingHealthProbe
    {
        public Task<string> CheckHealthAsync(string address, string service, CancellationToken cancellationToken = default) =>
            Task.FromResult("NOT_SERVING");

        public string Name { get; } = name;

        public IReadOnlyList<string> PushVariants { get; } = variants;

        public (string Address, string? Variant) LastRequest { get; private set; }

        public IReadOnlyList<CarryRefusal> Check(Type contract) => [new CarryRefusal(Name, contract.Name, null, "push only")];

        public TContract Create<TContract>(string address)
            where TContract : class => throw new NotSupportedException();

        public IPushClient CreatePushClient(string address, string? variant = null)
        {
            LastRequest = (address, variant);
            return new FakePushClient();
        }
    }

    private sealed class FakePushClient : IPushClient
    {
        public Task<IPushSubscription> SubscribeAsync(string topic, Action<Notification> onNotification, long? after = null, CancellationToken cancellationToken = default) =>
            throw new NotSupportedException();

        public Task<PublishReply> PublishAsync(Notification notification, CancellationToken cancellationToken = default) =>
            throw new NotSupportedException();

        public ValueTask DisposeAsync() => default;
    }

    /// <summary>Stands in for a contract proxy holding a connection.</summary>
    private sealed class FakeProxy : IFileService, IAsyncDisposable
    {
        public int Released { get; private set; }

        public ValueTask DisposeAsync()
        {
            Released++;
            return default;
        }

        public Task<PingReply> PingAsync(PingRequest request) => throw new NotSupportedException();

        public Task<ReadDirectoryReply> ReadDirectoryAsync(ReadDirectoryRequest request) => throw new NotSupportedException();

        public Task<WriteAtReply> WriteAtAsync(WriteAtRequest request) => throw new NotSupportedException();
    }
}
