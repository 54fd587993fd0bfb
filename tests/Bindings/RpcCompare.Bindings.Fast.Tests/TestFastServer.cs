using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Server;
using RpcCompare.ContractCorpus;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// fast-uds alone, registered as a host registers it (AddFastUdsBinding), serving the probe and
/// corpus contracts, with its log captured down to Debug.
/// </summary>
internal sealed class TestFastServer : IAsyncDisposable
{
    private readonly TemporaryDirectory _directory = new();
    private readonly ServiceProvider _services;

    private TestFastServer(Action<FastUdsBindingOptions>? configure, Action<IServiceCollection>? register)
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

        collection.AddFastUdsBinding(configure: o =>
        {
            o.Path = _directory.PathFor("fast.sock");
            configure?.Invoke(o);
        });
        _services = collection.BuildServiceProvider();
        Server = (FastServer)_services.GetServices<IBindingServer>().Single();
    }

    public CapturedLog Log { get; } = new(LogLevel.Debug);

    public Probe Probe { get; } = new();

    public FastServer Server { get; }

    public string Path => _directory.PathFor("fast.sock");

    public IServiceProvider Services => _services;

    public static async Task<TestFastServer> StartAsync(Action<FastUdsBindingOptions>? configure = null, Action<IServiceCollection>? register = null)
    {
        var server = new TestFastServer(configure, register);
        await ((IHostedService)server.Server).StartAsync(CancellationToken.None).Bounded();
        return server;
    }

    /// <summary>A proxy over fast-uds; <paramref name="options"/> are new ones by default, so the proxy gets connections of its own.</summary>
    public TContract Client<TContract>(FastClientOptions? options = null)
        where TContract : class => new FastClientProvider(options ?? new FastClientOptions()).Create<TContract>(Path);

    public async ValueTask DisposeAsync()
    {
        await _services.DisposeAsync();
        _directory.Dispose();
    }
}
