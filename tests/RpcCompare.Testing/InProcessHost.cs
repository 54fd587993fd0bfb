using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Grpc;
using RpcCompare.Bindings.Pipes;
using RpcCompare.Push;
using RpcCompare.Service;

namespace RpcCompare.Testing;

/// <summary>
/// RpcCompare's service on every network binding, hosted inside the test process on a temporary
/// socket and data root, so tests run in parallel and leave nothing behind.
/// </summary>
public sealed class InProcessHost : IAsyncDisposable
{
    private readonly TemporaryDirectory _directory;
    private readonly IHost _host;

    private InProcessHost(TemporaryDirectory directory, IHost host)
    {
        _directory = directory;
        _host = host;
    }

    public string PipePath => _directory.PathFor("pipes.sock");

    /// <summary>The host's container: what the inproc binding calls (RpcClientFactory.CreateDefault's inProcServices).</summary>
    public IServiceProvider Services => _host.Services;

    public string DataRoot => _host.Services.GetRequiredService<DataRoot>().FullPath;

    /// <summary>Starts every binding of this build, each on a free port or a socket in a temporary directory.</summary>
    /// <param name="configurePipes">Settings of the pipes binding, after the defaults.</param>
    /// <param name="maxMessageSize">The limit every binding enforces; by default each binding's own default (16 MiB).</param>
    /// <param name="configureServices">More registrations, such as another contract (AddRpcService).</param>
    /// <param name="configurePush">Settings of publish/subscribe (every push binding), after the defaults.</param>
    /// <param name="configureGrpc">Settings of both gRPC bindings, after the defaults.</param>
    /// <param name="bindings">The bindings to run (BindingNames); every one by default.</param>
    /// <param name="services">RpcCompare's own services to serve (ProductServices names); every one by default.</param>
    public static async Task<InProcessHost> StartAsync(Action<PipesBindingOptions>? configurePipes = null, int? maxMessageSize = null, Action<IServiceCollection>? configureServices = null,
        Action<PushOptions>? configurePush = null, Action<GrpcBindingOptions>? configureGrpc = null, IReadOnlyCollection<string>? bindings = null,
        IReadOnlyList<string>? services = null)
    {
        bool Runs(string binding) => bindings?.Contains(binding) ?? true;
        var directory = new TemporaryDirectory();
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Logging.SetMinimumLevel(LogLevel.Warning);
        // A client that stopped reading a reply holds Kestrel's graceful drain: give up well within the test's bound.
        builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = TimeSpan.FromSeconds(5));
        builder.Services.AddRpcCompareServices(configure: o => o.Path = Path.Combine(directory.FullPath, "data"), only: services);
        builder.Services.AddPushServices(configurePush);
        configureServices?.Invoke(builder.Services);
        if (Runs(BindingNames.Pipes))
        {
            builder.Services.AddPipesBinding(configure: o =>
            {
                o.Path = Path.Combine(directory.FullPath, "pipes.sock");
                o.MaxMessageSize = maxMessageSize ?? o.MaxMessageSize;
                configurePipes?.Invoke(o);
            });
        }

        if (Runs(BindingNames.FastUds))
        {
            builder.Services.AddFastUdsBinding(configure: o =>
                (o.Path, o.MaxMessageSize) = (directory.PathFor("fast.sock"), maxMessageSize ?? o.MaxMessageSize));
        }

        if (Runs(BindingNames.FastTcp))
        {
            builder.Services.AddFastTcpBinding(configure: o => o.MaxMessageSize = maxMessageSize ?? o.MaxMessageSize);
        }

        if (Runs(BindingNames.WcfNetTcp))
        {
            builder.Services.AddWcfNetTcpBinding(configure: o => o.MaxMessageSize = maxMessageSize ?? o.MaxMessageSize);
        }

        if (Runs(BindingNames.WcfUds))
        {
            builder.Services.AddWcfUdsBinding(configure: o =>
                (o.Path, o.MaxMessageSize) = (directory.PathFor("wcf-uds"), maxMessageSize ?? o.MaxMessageSize));
        }

        if (Runs(BindingNames.WcfHttp))
        {
            builder.Services.AddWcfHttpBinding(configure: o => o.MaxMessageSize = maxMessageSize ?? o.MaxMessageSize);
        }

        if (Runs(BindingNames.GrpcTcp))
        {
            builder.Services.AddGrpcTcpBinding(configure: o =>
            {
                o.MaxMessageSize = maxMessageSize ?? o.MaxMessageSize;
                configureGrpc?.Invoke(o);
            });
        }

        if (Runs(BindingNames.GrpcUds))
        {
            builder.Services.AddGrpcUdsBinding(configure: o =>
            {
                (o.Path, o.MaxMessageSize) = (directory.PathFor("grpc.sock"), maxMessageSize ?? o.MaxMessageSize);
                configureGrpc?.Invoke(o);
            });
        }

        var host = builder.Build();
        try
        {
            await host.StartAsync().Bounded();
        }
        catch
        {
            // A binding that refused to start leaves the others listening: stop them too.
            await host.StopAsync().Bounded();
            host.Dispose();
            directory.Dispose();
            throw;
        }

        return new InProcessHost(directory, host);
    }

    /// <summary>The topics every push binding serves.</summary>
    public TopicRegistry Topics => _host.Services.GetRequiredService<TopicRegistry>();

    public IBindingServer Binding(string name) => _host.Services.GetServices<IBindingServer>().Single(s => s.Name == name);

    /// <summary>Where a client of <paramref name="binding"/> connects; for inproc, the data root.</summary>
    public string Address(string binding) => binding == BindingNames.InProc ? DataRoot : Binding(binding).Address!;

    public async ValueTask DisposeAsync()
    {
        await _host.StopAsync().Bounded();
        _host.Dispose();
        _directory.Dispose();
    }
}
