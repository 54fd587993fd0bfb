using Microsoft.Extensions.Options;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Service;

namespace RpcCompare.Host;

/// <summary>
/// Once every hosted service has started (every listener is bound), logs each binding's address
/// and writes the endpoints file; deletes the file on shutdown so no tool finds a stale one.
/// </summary>
internal sealed partial class EndpointsPublisher : IHostedService
{
    private readonly IEnumerable<IBindingServer> _servers;
    private readonly DataRoot _dataRoot;
    private readonly IHostApplicationLifetime _lifetime;
    private readonly RpcCompareHostOptions _options;
    private readonly ILogger<EndpointsPublisher> _logger;
    private readonly TransportSecurity _security;
    private CancellationTokenRegistration _registration;

    private readonly UnixPeerPolicy _peers;

    public EndpointsPublisher(IEnumerable<IBindingServer> servers, DataRoot dataRoot, IHostApplicationLifetime lifetime, IOptions<RpcCompareHostOptions> options,
        TransportSecurity security, UnixPeerPolicy peers, ILogger<EndpointsPublisher> logger)
    {
        _security = security;
        _peers = peers;
        _servers = servers;
        _dataRoot = dataRoot;
        _lifetime = lifetime;
        _options = options.Value;
        _logger = logger;
    }

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _registration = _lifetime.ApplicationStarted.Register(() => _ = PublishAsync());
        return Task.CompletedTask;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        await _registration.DisposeAsync();
        if (_options.EndpointsFile is { } path)
        {
            File.Delete(path);
            File.Delete(CertificatePath(path));
        }
    }

    private async Task PublishAsync()
    {
        try
        {
            var endpoints = new Dictionary<string, string>(StringComparer.Ordinal);
            foreach (var server in _servers)
            {
                var address = server.Address ?? throw new InvalidOperationException($"Binding {server.Name} started without an address.");
                endpoints[server.Name] = Advertised(address);
            }

            // inproc is no listener: its "address" is the data root a same-machine client opens directly.
            endpoints[BindingNames.InProc] = _dataRoot.FullPath;
            LogDataRoot(_logger, _dataRoot.FullPath);
            LogPeers(_logger, _peers.Description);
            if (_security.Certificate is { } certificate)
            {
                LogCertificate(_logger, certificate.Thumbprint, certificate.Source, certificate.Certificate.NotAfter.ToUniversalTime());
                if (_security.ClientCertificates is { } clients)
                {
                    LogClientCertificates(_logger, clients.Description);
                }
            }

            if (_options.EndpointsFile is { } path)
            {
                if (_security.Certificate is { } published)
                {
                    // The public certificate for clients that trust a file rather than a pin (Node.js's TLS), written first.
                    await File.WriteAllTextAsync(CertificatePath(path), published.Certificate.ExportCertificatePem());
                }

                await EndpointsFile.WriteAsync(path, new HostEndpoints(endpoints, _security.Certificate?.Thumbprint));
                LogEndpointsFile(_logger, path);
            }

            LogReady(_logger, string.Join(", ", endpoints.Keys));
        }
        catch (Exception exception)
        {
            LogPublishFailed(_logger, exception);
            _lifetime.StopApplication();
        }
    }

    private static string CertificatePath(string endpointsFile) => EndpointsFile.CertificatePathBeside(endpointsFile);

    /// <summary>A TCP binding's URL with the advertised host name; socket paths are left alone.</summary>
    private string Advertised(string address) =>
        _options.AdvertisedHost is { Length: > 0 } name && Uri.TryCreate(address, UriKind.Absolute, out var uri) && !uri.IsFile
            ? new UriBuilder(uri) { Host = name }.Uri.AbsoluteUri.TrimEnd('/')
            : address;

    [LoggerMessage(1, LogLevel.Information, "Data root {Path}")]
    private static partial void LogDataRoot(ILogger logger, string path);

    [LoggerMessage(2, LogLevel.Information, "Endpoints written to {Path}")]
    private static partial void LogEndpointsFile(ILogger logger, string path);

    [LoggerMessage(3, LogLevel.Information, "Ready: {Bindings}")]
    private static partial void LogReady(ILogger logger, string bindings);

    [LoggerMessage(5, LogLevel.Information, "TLS on the TCP bindings: certificate SHA-256 {Thumbprint} ({Source}), valid until {NotAfter:yyyy-MM-dd}")]
    private static partial void LogCertificate(ILogger logger, string thumbprint, string source, DateTime notAfter);

    [LoggerMessage(6, LogLevel.Information, "Unix-socket bindings serve {Users} (RpcCompare:AllowedUsers)")]
    private static partial void LogPeers(ILogger logger, string users);

    [LoggerMessage(7, LogLevel.Information, "TLS clients must present a certificate: {Served}")]
    private static partial void LogClientCertificates(ILogger logger, string served);

    [LoggerMessage(4, LogLevel.Critical, "Could not publish the endpoints; stopping")]
    private static partial void LogPublishFailed(ILogger logger, Exception exception);
}
