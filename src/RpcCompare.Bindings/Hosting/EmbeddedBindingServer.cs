using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Hosting;

/// <summary>
/// A binding served by a host of its own (a small ASP.NET Core application, or a generic host
/// for a framework that brings its own server), started and stopped with the RpcCompare host.
/// </summary>
/// <remarks>
/// Each framework binding gets its own host rather than sharing one: its listeners, middleware
/// and framework services then cannot interfere with another binding's (CoreWCF's Unix-socket
/// transport, for one, starts a Kestrel server from the host's Kestrel options and collides with
/// any other listener configured there), each binding is measured without the others' middleware
/// in its pipeline, and a host runs any subset of bindings. The embedded hosts share the RpcCompare
/// host's service implementations (one instance per contract, as the raw pipe binding does) and
/// its logging.
/// </remarks>
public abstract class EmbeddedBindingServer : IHostedService, IBindingServer, IAsyncDisposable
{
    private IReadOnlyList<IHost> _hosts = [];
    private ConnectionIncidents? _incidents;
    private IDisposable? _watch;

    protected EmbeddedBindingServer(IServiceProvider hostServices)
    {
        HostServices = hostServices;
    }

    public abstract string Name { get; }

    public string? Address { get; private set; }

    /// <summary>The RpcCompare host's own services.</summary>
    protected IServiceProvider HostServices { get; }

    /// <summary>The contracts the host serves (AddRpcService), which this binding exposes.</summary>
    protected IReadOnlyList<RpcServiceDescriptor> Services => [.. HostServices.GetServices<RpcServiceDescriptor>()];

    /// <summary>TLS for a TCP binding, from the host (plaintext and loopback-only when the host registered none).</summary>
    protected TransportSecurity Security => HostServices.GetService<TransportSecurity>() ?? TransportSecurity.Plaintext;

    /// <summary>Which users a Unix-socket binding serves, from the host (by default this process's own user and root).</summary>
    protected UnixPeerPolicy Peers => HostServices.GetService<UnixPeerPolicy>() ?? UnixPeerPolicy.OwnUser;

    /// <summary>What this binding carries; checked for every registered contract before it listens.</summary>
    protected virtual CarryRules Carries => CarryRules.Everything;

    /// <summary>The binding's connection limit and timeouts, and the configuration section they come from (for messages).</summary>
    protected abstract (FrameworkConnectionOptions Options, string Section) Connections { get; }

    /// <summary>The connection limit in force, known from the start of <see cref="StartAsync"/>, so <see cref="Build"/> can set it.</summary>
    protected int MaxConnections { get; private set; }

    /// <summary>Where the binding counts connections it refused or closed; there from the start of <see cref="StartAsync"/>.</summary>
    protected ConnectionIncidents Incidents => _incidents ?? throw new InvalidOperationException("The binding has not started.");

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        Carries.ThrowUnlessCarried(Name, Services.Select(static s => s.Contract));
        var (connections, section) = Connections;
        connections.ThrowIfInvalid(section);
        MaxConnections = connections.EffectiveMaxConnections;
        var logger = HostServices.GetRequiredService<ILogger<EmbeddedBindingServer>>();
        _incidents = new ConnectionIncidents(Name, $"{MaxConnections:#,0} ({section}:MaxConnections)", logger);
        var hosts = Build();
        foreach (var host in hosts)
        {
            await host.StartAsync(cancellationToken);
            _hosts = [.. _hosts, host];
        }

        Address = BoundAddress(hosts[0]);
        _watch = KestrelIncidentWatch.Watch(OwnsEndpoint, _incidents);
        EmbeddedBindingLog.Listening(logger, Name, Address);
        EmbeddedBindingLog.Limits(logger, Name, MaxConnections, section, connections.HandshakeTimeout.TotalSeconds, connections.IdleTimeout.TotalSeconds);
    }

    /// <summary>
    /// Whether a connection Kestrel accepted on this local endpoint is this binding's: the port of
    /// a TCP address, or a socket at (or under, for a directory of sockets) a Unix-socket address.
    /// </summary>
    protected virtual bool OwnsEndpoint(string? serverAddress, int? serverPort) =>
        Address is { } address && (Uri.TryCreate(address, UriKind.Absolute, out var uri) && uri.Scheme != Uri.UriSchemeFile
            ? serverPort == uri.Port
            : serverAddress is not null && (serverAddress == address || serverAddress.StartsWith(address.TrimEnd('/') + "/", StringComparison.Ordinal)));

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        foreach (var host in _hosts)
        {
            await host.StopAsync(cancellationToken);
        }

        StopCountingIncidents();
        OnStopped();
    }

    // The last summary is written when the binding stops, so nothing counted is lost.
    private void StopCountingIncidents()
    {
        Interlocked.Exchange(ref _watch, null)?.Dispose();
        Interlocked.Exchange(ref _incidents, null)?.Dispose();
    }

    /// <summary>Removes what the binding created beside its listeners, once they have stopped.</summary>
    protected virtual void OnStopped()
    {
    }

    public async ValueTask DisposeAsync()
    {
        // The hosts first: connections they close on the way are still counted as closed (rpccompare.connections.open).
        foreach (var host in Interlocked.Exchange(ref _hosts, []))
        {
            if (host is IAsyncDisposable asyncDisposable)
            {
                await asyncDisposable.DisposeAsync();
            }
            else
            {
                host.Dispose();
            }
        }

        StopCountingIncidents();
        GC.SuppressFinalize(this);
    }

    /// <summary>
    /// Builds the binding's host (usually one; a framework that serves one listener per host gets
    /// one per listener); their services start with <see cref="AddHostServices"/>.
    /// </summary>
    protected abstract IReadOnlyList<IHost> Build();

    /// <summary>The address clients dial, read from the first host once it listens (a port of 0 is resolved by then).</summary>
    protected abstract string BoundAddress(IHost host);

    /// <summary>Shares the RpcCompare host's logging and service implementations with the binding's host.</summary>
    protected void AddHostServices(IServiceCollection services)
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddSingleton<IHostLifetime, EmbeddedHostLifetime>();
        services.AddSingleton(HostServices.GetRequiredService<ILoggerFactory>());
        foreach (var served in Services)
        {
            // Instances, not factories, so the binding's container never disposes what the host owns.
            var implementation = HostServices.GetRequiredService(served.Implementation);
            services.AddSingleton(served.Implementation, implementation);
            services.AddSingleton(served.Contract, implementation);
            services.AddSingleton(served);
        }
    }
}
