using System.Net;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Https;

namespace RpcCompare.Bindings.Security;

/// <summary>
/// What the host's TCP bindings do about TLS: present <see cref="Certificate"/> (when there is one)
/// and refuse to listen beyond loopback in plaintext unless <see cref="AllowInsecure"/>. The host
/// registers one; a binding without one is plaintext and loopback-only.
/// </summary>
public sealed class TransportSecurity
{
    /// <summary>No TLS, loopback only: a binding started outside a host (tests, tools).</summary>
    public static readonly TransportSecurity Plaintext = new(null, allowInsecure: false);

    public TransportSecurity(ServerCertificate? certificate, bool allowInsecure)
    {
        Certificate = certificate;
        AllowInsecure = allowInsecure;
    }

    /// <summary>The certificate every TCP binding presents; null for plaintext.</summary>
    public ServerCertificate? Certificate { get; }

    public bool AllowInsecure { get; }

    public bool UsesTls => Certificate is not null;

    /// <summary>
    /// Throws unless <paramref name="address"/> is a loopback address, TLS is on, or plaintext was
    /// allowed: a port on 0.0.0.0 without TLS serves anyone who can reach it, and reads their traffic to others.
    /// </summary>
    /// <param name="binding">The binding, for the message.</param>
    /// <param name="address">The address it would listen on.</param>
    /// <param name="setting">The setting the address came from, for the message.</param>
    public void ThrowIfExposed(string binding, IPAddress address, string setting)
    {
        ArgumentNullException.ThrowIfNull(address);
        if (!UsesTls && !AllowInsecure && !IPAddress.IsLoopback(address))
        {
            throw new InvalidOperationException(
                $"{binding} would listen on {address} ({setting}) without TLS. Start the host with --tls (a self-signed certificate is made in its state directory " +
                "unless --tls-certificate names one), or with --allow-insecure to serve plaintext beyond this machine on purpose.");
        }
    }

    /// <summary>Kestrel's TLS on <paramref name="listen"/> (ALPN offers what its Protocols allow); the TLS handshake must end within <paramref name="handshakeTimeout"/>.</summary>
    public void UseTls(ListenOptions listen, TimeSpan handshakeTimeout)
    {
        ArgumentNullException.ThrowIfNull(listen);
        var certificate = Certificate ?? throw new InvalidOperationException("TLS is off: there is no server certificate.");
        listen.UseHttps(new HttpsConnectionAdapterOptions
        {
            ServerCertificate = certificate.Certificate,
            HandshakeTimeout = handshakeTimeout,
        });
    }
}
