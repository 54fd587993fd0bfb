using System.Net;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Https;
using RpcCompare.Bindings.Limits;

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

    /// <param name="certificate">The certificate the TCP bindings present; null for plaintext.</param>
    /// <param name="allowInsecure">Whether plaintext may listen beyond loopback.</param>
    /// <param name="clientCertificates">Mutual TLS: the client certificates served; null to ask for none.</param>
    public TransportSecurity(ServerCertificate? certificate, bool allowInsecure, ClientCertificatePolicy? clientCertificates = null)
    {
        if (clientCertificates is not null && certificate is null)
        {
            throw new InvalidOperationException("Client certificates (Tls:ClientCertificates, Tls:ClientCertificateAuthority) need TLS on: add --tls.");
        }

        Certificate = certificate;
        AllowInsecure = allowInsecure;
        ClientCertificates = clientCertificates;
    }

    /// <summary>The certificate every TCP binding presents; null for plaintext.</summary>
    public ServerCertificate? Certificate { get; }

    public bool AllowInsecure { get; }

    /// <summary>Mutual TLS: which client certificates are served; null when none is asked for.</summary>
    public ClientCertificatePolicy? ClientCertificates { get; }

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

    /// <summary>
    /// Kestrel's TLS on <paramref name="listen"/> (ALPN offers what its Protocols allow); the TLS
    /// handshake must end within <paramref name="handshakeTimeout"/>. With client certificates asked
    /// for, any certificate (or none) completes the handshake and <see cref="Refuse"/> applies the
    /// policy right after it (<see cref="ConnectionCaller"/>): a refusal inside the handshake would
    /// reach the client as a reset it cannot explain, and would be counted by Kestrel as a failed
    /// handshake that says nothing of the certificate.
    /// </summary>
    public void UseTls(ListenOptions listen, TimeSpan handshakeTimeout)
    {
        ArgumentNullException.ThrowIfNull(listen);
        var certificate = Certificate ?? throw new InvalidOperationException("TLS is off: there is no server certificate.");
        var https = new HttpsConnectionAdapterOptions { ServerCertificate = certificate.Certificate, HandshakeTimeout = handshakeTimeout };
        if (ClientCertificates is not null)
        {
            https.ClientCertificateMode = ClientCertificateMode.AllowCertificate;
            https.ClientCertificateValidation = static (_, _, _) => true;
        }

        listen.UseHttps(https);
    }

    /// <summary>
    /// Why a TLS caller is not served (its certificate is missing or not accepted by the
    /// <see cref="ClientCertificates"/> policy), counted in <paramref name="incidents"/>; null when it
    /// is served or no client certificates are asked for.
    /// </summary>
    public string? Refuse(CallerIdentity caller, ConnectionIncidents incidents)
    {
        ArgumentNullException.ThrowIfNull(caller);
        return ClientCertificates?.Refuse(caller.Certificate, incidents);
    }
}
