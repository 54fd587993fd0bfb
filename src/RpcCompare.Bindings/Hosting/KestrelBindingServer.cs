using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace RpcCompare.Bindings.Hosting;

/// <summary>
/// A binding served by a Kestrel server of its own, started and stopped with the host.
/// </summary>
/// <remarks>
/// Each framework binding gets its own small ASP.NET Core application rather than sharing one:
/// its listeners, middleware and framework services then cannot interfere with another
/// binding's (CoreWCF's Unix-socket transport, for one, starts a server from the host's Kestrel
/// options and collides with any other listener there), each binding is measured without the
/// others' middleware in its pipeline, and a host runs any subset of bindings. The applications
/// share the host's service implementations (one instance per contract, as the raw pipe binding
/// does) and its logging.
/// </remarks>
public abstract class KestrelBindingServer : IHostedService, IBindingServer, IAsyncDisposable
{
    private readonly IServiceProvider _hostServices;
    private WebApplication? _application;

    protected KestrelBindingServer(IServiceProvider hostServices)
    {
        _hostServices = hostServices;
    }

    public abstract string Name { get; }

    public string? Address { get; private set; }

    /// <summary>The contracts the host serves (AddRpcService), which this binding exposes.</summary>
    protected IReadOnlyList<RpcServiceDescriptor> Services => [.. _hostServices.GetServices<RpcServiceDescriptor>()];

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        // The empty builder reads no appsettings or environment: a binding's settings come from its options alone.
        var builder = WebApplication.CreateEmptyBuilder(new WebApplicationOptions { ApplicationName = GetType().Assembly.GetName().Name });
        builder.WebHost.UseKestrelCore().ConfigureKestrel(options =>
        {
            options.AddServerHeader = false;
            ConfigureKestrel(options);
        });
        builder.Services.AddRouting();
        builder.Services.AddSingleton(_hostServices.GetRequiredService<ILoggerFactory>());
        foreach (var served in Services)
        {
            // Instances (not factories) so the binding's container never disposes what the host owns.
            var implementation = _hostServices.GetRequiredService(served.Implementation);
            builder.Services.AddSingleton(served.Implementation, implementation);
            builder.Services.AddSingleton(served.Contract, implementation);
            builder.Services.AddSingleton(served);
        }

        ConfigureServices(builder.Services);
        var application = builder.Build();
        Configure(application);
        await application.StartAsync(cancellationToken);
        _application = application;
        Address = BoundAddress(application);
        KestrelBindingLog.Listening(_hostServices.GetRequiredService<ILogger<KestrelBindingServer>>(), Name, Address);
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_application is { } application)
        {
            await application.StopAsync(cancellationToken);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _application, null) is { } application)
        {
            await application.DisposeAsync();
        }

        GC.SuppressFinalize(this);
    }

    /// <summary>Adds this binding's listener.</summary>
    protected abstract void ConfigureKestrel(KestrelServerOptions options);

    /// <summary>Adds the framework's services.</summary>
    protected abstract void ConfigureServices(IServiceCollection services);

    /// <summary>Maps the framework's endpoints or middleware.</summary>
    protected abstract void Configure(WebApplication application);

    /// <summary>The address clients dial, read once the listener is bound (a port of 0 is resolved by then).</summary>
    protected abstract string BoundAddress(WebApplication application);
}
