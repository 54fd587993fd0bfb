using System.Net;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Host;

/// <summary>The host's <see cref="TransportSecurity"/> from its Tls section: the certificate loaded (or made) once, before any binding starts.</summary>
internal static class HostTls
{
    /// <summary>Reads the Tls section; throws <see cref="InvalidOperationException"/> saying what is wrong with a configured certificate.</summary>
    public static TransportSecurity Create(IConfiguration configuration, RpcCompareHostOptions host)
    {
        var options = configuration.GetSection(TlsOptions.SectionName).Get<TlsOptions>() ?? new TlsOptions();
        // Naming a certificate, or the client certificates to serve, is asking for TLS.
        var clients = ClientCertificatePolicy.From(options);
        if (!options.Enabled && string.IsNullOrEmpty(options.CertificateFile) && clients is null)
        {
            return new TransportSecurity(null, options.AllowInsecure, clients);
        }

        return new TransportSecurity(ServerCertificate.Load(options, host.EffectiveStateDirectory, NamesFor(host)), options.AllowInsecure, clients);
    }

    /// <summary>
    /// The names a self-signed certificate carries: loopback by name and address, and the advertised
    /// host and listen address when set, so a client that checks names instead of pinning (Node.js
    /// trusting the certificate file) still matches the one it dialled.
    /// </summary>
    private static List<string> NamesFor(RpcCompareHostOptions host)
    {
        // Not the machine's own name: a container's changes with every container, which would
        // replace the certificate (and break every pin) at each start. --advertised-host adds a name.
        var names = new List<string> { "localhost", IPAddress.Loopback.ToString(), IPAddress.IPv6Loopback.ToString() };
        if (host.AdvertisedHost is { Length: > 0 } advertised)
        {
            names.Add(advertised);
        }

        if (host.ListenAddress is { Length: > 0 } listen && IPAddress.TryParse(listen, out var address)
            && !address.Equals(IPAddress.Any) && !address.Equals(IPAddress.IPv6Any))
        {
            names.Add(address.ToString());
        }

        return [.. names.Distinct(StringComparer.OrdinalIgnoreCase)];
    }
}
