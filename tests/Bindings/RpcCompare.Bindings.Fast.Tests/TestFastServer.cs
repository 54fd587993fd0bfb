using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Server;
using RpcCompare.Bindings.Security;
using RpcCompare.ContractCorpus;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// fast-uds (or fast-tcp) alone, registered as a host registers it (AddFastUdsBinding,
/// AddFastTcpBinding), serving the probe and corpus contracts, with its log captured down to Debug.
/// </summary>
internal sealed class TestFastServer : IAsyncDisposable
{
    private readonly TemporaryDirectory _directory = new();
    private readonly ServiceProvider _services;

    private TestFastServer(Action<IServiceCollection, TestFastServer> addBinding, Action<IServiceCollection>? register)
    {
        var collection = new ServiceCollection().AddLogging();
        Log.AddTo(collection);
        collection.AddSingleton(Probe).AddRpcService<IProbe, Probe>();
        if (register is null)
        {
            collection.AddRpcService<ICalculator, Calculator>()
                .AddRpcService<IOrderService, OrderService>()
                .AddRpcService<IParameterShapes, ParameterShapes>()
                .AddRpcService<IValueTaskForms, ValueTaskForms>()
                .AddRpcService<IShapes, Shapes>()
                .AddRpcService<IDataShapes, DataShapes>();
        }
        else
        {
            register(collection);
        }

        addBinding(collection, this);
        _services = collection.BuildServiceProvider();
        Server = (FastServer)_services.GetServices<IBindingServer>().Single();
    }

    public CapturedLog Log { get; } = new(LogLevel.Debug);

    public Probe Probe { get; } = new();

    public FastServer Server { get; }

    /// <summary>The socket path a fast-uds server is given.</summary>
    public string Path => _directory.PathFor("fast.sock");

    /// <summary>Where clients connect: <see cref="Path"/> on fast-uds, tcp://127.0.0.1:port on fast-tcp.</summary>
    public string Address => Server.Address!;

    public IServiceProvider Services => _services;

    public static Task<TestFastServer> StartAsync(Action<FastUdsBindingOptions>? configure = null, Action<IServiceCollection>? register = null) =>
        StartAsync((services, server) => services.AddFastUdsBinding(configure: o =>
        {
            o.Path = server.Path;
            configure?.Invoke(o);
        }), register);

    /// <summary>fast-tcp on a free port of 127.0.0.1 (unless <paramref name="configure"/> says otherwise), with <paramref name="security"/> registered as a host's.</summary>
    public static Task<TestFastServer> StartTcpAsync(Action<FastTcpBindingOptions>? configure = null, TransportSecurity? security = null) =>
        StartAsync((services, _) =>
        {
            if (security is not null)
            {
                services.AddSingleton(security);
            }

            services.AddFastTcpBinding(configure: configure);
        }, register: null);

    /// <summary>A proxy over the server's binding; <paramref name="options"/> are new ones by default, so the proxy gets connections of its own.</summary>
    public TContract Client<TContract>(FastClientOptions? options = null)
        where TContract : class => new FastClientProvider(Server.Name, options ?? new FastClientOptions()).Create<TContract>(Address);

    private static async Task<TestFastServer> StartAsync(Action<IServiceCollection, TestFastServer> addBinding, Action<IServiceCollection>? register)
    {
        var server = new TestFastServer(addBinding, register);
        try
        {
            await ((IHostedService)server.Server).StartAsync(CancellationToken.None).Bounded();
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }

        return server;
    }

    public async ValueTask DisposeAsync()
    {
        await _services.DisposeAsync();
        _directory.Dispose();
    }
}
