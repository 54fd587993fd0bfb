using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Configuration;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Hosting;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;
using RpcCompare.Bindings.Wcf.Server;

namespace RpcCompare.Bindings.Wcf.Uds;

/// <summary>
/// wcf-uds: CoreWCF's Unix-socket transport, the named-pipe role on Linux. The address is a
/// directory with one socket per endpoint: the WCF client connects to the socket its endpoint
/// URI names (net.uds://&lt;path&gt;), so endpoints cannot share one socket file.
/// </summary>
/// <remarks>
/// Generic hosts, not web applications: CoreWCF.UnixDomainSocket starts its own Kestrel server
/// from the host's Kestrel options (as CoreWCF's own tests host it). One host per contract: a
/// CoreWCF 1.9.1 host listening on several sockets accepted connections and closed them without
/// a reply or a log line (it registers one net.uds base address per socket), while one socket
/// per host works.
/// </remarks>
internal sealed class WcfUdsServer : EmbeddedBindingServer
{
    private readonly WcfUdsBindingOptions _options;
    private bool _createdDirectory;

    public WcfUdsServer(IServiceProvider hostServices, IOptions<WcfUdsBindingOptions> options)
        : base(hostServices)
    {
        _options = options.Value;
    }

    public override string Name => BindingNames.WcfUds;

    protected override CarryRules Carries => WcfCarryRules.Sessionful;

    private string Directory => _options.Path is { Length: > 0 } path && System.IO.Path.IsPathRooted(path)
        ? path
        : throw new InvalidOperationException($"The wcf-uds binding needs an absolute directory for its sockets (WcfUds:Path); got '{_options.Path}'.");

    /// <summary>The binding both sides use: binary encoding, no security, quotas from the options.</summary>
    public static UnixDomainSocketBinding CreateBinding(int maxMessageSize)
    {
        var binding = new UnixDomainSocketBinding(UnixDomainSocketSecurityMode.None) { MaxReceivedMessageSize = maxMessageSize };
        WcfServiceModel.RaiseQuotas(binding.ReaderQuotas, maxMessageSize);
        return binding;
    }

    /// <summary>net.uds:// URI of an endpoint's socket in <paramref name="directory"/>.</summary>
    public static Uri EndpointUri(string directory, string endpointName) =>
        new("net.uds://" + System.IO.Path.Combine(directory, endpointName));

    protected override IReadOnlyList<IHost> Build()
    {
        var directory = Directory;
        _createdDirectory = !System.IO.Directory.Exists(directory);
        System.IO.Directory.CreateDirectory(directory);
        // Unix-socket sessions can call back: the push endpoints are served here, each on its own socket.
        // Each socket has a Kestrel server of its own: one limit counts the connections of them all.
        var limit = new SharedConnectionLimit(MaxConnections, Incidents);
        return [.. WcfServiceModel.EndpointsOf(Services, HostServices, duplex: true).Select(endpoint => BuildFor(endpoint, directory, limit))];
    }

    private IHost BuildFor(WcfEndpoint endpoint, string directory, SharedConnectionLimit limit)
    {
        var uri = EndpointUri(directory, endpoint.Name);
        StaleSocketFile.RemoveIfStale(uri.LocalPath);
        var framing = new UdsFramingListenOptions(uri, HostServices, _options);
        var host = new HostBuilder()
            .ConfigureServices(services => services.Configure<KestrelServerOptions>(kestrel =>
            {
                // Kestrel's own limit per socket as a backstop; the shared one counts all sockets.
                KestrelLimits.Apply(kestrel.Limits, _options, MaxConnections);
                // CoreWCF 1.9.1 ignores middleware on its Unix-socket listen options, but Kestrel puts
                // endpoint defaults on every listener, ahead of CoreWCF's handler: configured before
                // UseUnixDomainSocket, so they are in place when CoreWCF adds its socket.
                kestrel.ConfigureEndpointDefaults(listen =>
                {
                    limit.AddTo(listen);
                    WcfServiceModel.CountTimeouts(listen, Incidents);
                    ConnectionCaller.AddTo(listen, Name, caller => Peers.Refuse(caller.Peer, Incidents));
                    listen.Use(next => connection =>
                    {
                        connection.Features.Set<NetFramingListenOptions>(framing);
                        return next(connection);
                    });
                });
            }))
            .UseUnixDomainSocket(options => options.Listen(uri))
            .ConfigureServices(services =>
            {
                AddHostServices(services);
                WcfServiceModel.AddServices(services, Name, [endpoint], _options, HostServices, refusesCallers: Peers != UnixPeerPolicy.AnyUser);
            })
            .Build();
        host.UseServiceModel(builder => WcfServiceModel.AddEndpoints(builder, [endpoint], () => CreateBinding(_options.MaxMessageSize), _options, _ => uri));
        return host;
    }

    protected override (FrameworkConnectionOptions Options, string Section) Connections => (_options, WcfUdsBindingOptions.SectionName);

    protected override string BoundAddress(IHost host) => Directory;

    // Kestrel removes the socket files; the directory that held them goes too, if this binding made it.
    protected override void OnStopped()
    {
        if (_createdDirectory && System.IO.Directory.Exists(Directory) && !System.IO.Directory.EnumerateFileSystemEntries(Directory).Any())
        {
            System.IO.Directory.Delete(Directory);
        }
    }
}
