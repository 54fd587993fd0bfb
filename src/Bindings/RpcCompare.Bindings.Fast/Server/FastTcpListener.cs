using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// fast-tcp: a TCP port. In plaintext the frames go straight to the socket; when the host's TCP
/// bindings use TLS (--tls) so does this one, with the same certificate and, under mutual TLS, the
/// same client-certificate policy (<see cref="TransportSecurity"/>), negotiated on each
/// connection's own thread within <see cref="FastTcpBindingOptions.HandshakeTimeout"/>. Like the other TCP bindings it listens beyond
/// loopback only in TLS or when the host allows plaintext there (--allow-insecure). The caller is
/// known by its address and, under mutual TLS, its certificate.
/// </summary>
internal sealed class FastTcpListener(FastTcpBindingOptions options, TransportSecurity security) : FastListener
{
    // Built once, as Kestrel does: a certificate alone would have SslStream build its chain on every handshake.
    private SslStreamCertificateContext? _certificate;

    public override string Binding => BindingNames.FastTcp;

    public override FastBindingOptions Options => options;

    public override (Socket Socket, string Address) Open()
    {
        var setting = $"{FastTcpBindingOptions.SectionName}:ListenAddress";
        var address = IPAddress.TryParse(options.ListenAddress, out var parsed)
            ? parsed
            : throw new InvalidOperationException($"{setting} must be an IP address such as 127.0.0.1 or 0.0.0.0; got '{options.ListenAddress}'.");
        security.ThrowIfExposed(Binding, address, setting);
        if (security.Certificate is { } certificate)
        {
            _certificate = SslStreamCertificateContext.Create(certificate.Certificate, additionalCertificates: null, offline: true);
        }

        var listener = Listen(new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp), new IPEndPoint(address, options.Port));
        var bound = (IPEndPoint)listener.LocalEndPoint!;
        return (listener, FastEndpoint.TcpAddress(Dialled(bound.Address), bound.Port));
    }

    public override bool UsesTls => security.UsesTls;

    public override FastTransport Transport(Socket socket)
    {
        // A reply is one send of a whole frame: Nagle's algorithm would only hold the next frame back for the last one's ACK.
        socket.NoDelay = true;
        return security.UsesTls ? new TlsTransport(socket) : new SocketTransport(socket);
    }

    public override (CallerIdentity Caller, string? Denied) Accept(FastTransport transport, ConnectionIncidents incidents)
    {
        var remoteAddress = transport.Socket.RemoteEndPoint?.ToString();
        if (transport is not TlsTransport tls)
        {
            return (new CallerIdentity(Binding, remoteAddress: remoteAddress), null);
        }

        tls.AuthenticateAsServer(_certificate!, askClientCertificate: security.ClientCertificates is not null, options.HandshakeTimeout);
        var caller = new CallerIdentity(Binding, certificate: tls.RemoteCertificate, remoteAddress: remoteAddress);
        return (caller, security.Refuse(caller, incidents));
    }

    /// <summary>The address a client dials for a listener on every address: loopback, which reaches it from this machine (and from a published port).</summary>
    private static IPAddress Dialled(IPAddress bound) =>
        bound.Equals(IPAddress.Any) ? IPAddress.Loopback : bound.Equals(IPAddress.IPv6Any) ? IPAddress.IPv6Loopback : bound;
}
