using System.Net;
using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// fast-tcp: a TCP port, plaintext. The frames go straight to the socket (no SslStream between),
/// so the binding refuses to start when the host's TCP bindings use TLS (a caller would believe
/// every TCP binding of the host encrypted, and mutual TLS would be bypassed), and listens beyond
/// loopback only when the host allows plaintext there (--allow-insecure). The caller is known by
/// its address only.
/// </summary>
internal sealed class FastTcpListener(FastTcpBindingOptions options, TransportSecurity security) : FastListener
{
    public override string Binding => BindingNames.FastTcp;

    public override FastBindingOptions Options => options;

    public override (Socket Socket, string Address) Open()
    {
        var setting = $"{FastTcpBindingOptions.SectionName}:ListenAddress";
        var address = IPAddress.TryParse(options.ListenAddress, out var parsed)
            ? parsed
            : throw new InvalidOperationException($"{setting} must be an IP address such as 127.0.0.1 or 0.0.0.0; got '{options.ListenAddress}'.");
        if (security.UsesTls)
        {
            throw new InvalidOperationException(
                "fast-tcp has no TLS: it cannot serve a host whose TCP bindings use TLS (--tls). Leave it out of --bindings, or use fast-uds on this machine.");
        }

        if (!IPAddress.IsLoopback(address) && !security.AllowInsecure)
        {
            // Not TransportSecurity.ThrowIfExposed: its advice, --tls, is no way out for a binding without TLS.
            throw new InvalidOperationException(
                $"fast-tcp would listen on {address} ({setting}) in plaintext: it has no TLS. Listen on 127.0.0.1, or start the host with --allow-insecure to serve plaintext beyond this machine on purpose.");
        }

        var listener = Listen(new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp), new IPEndPoint(address, options.Port));
        var bound = (IPEndPoint)listener.LocalEndPoint!;
        return (listener, FastEndpoint.TcpAddress(Dialled(bound.Address), bound.Port));
    }

    public override (CallerIdentity Caller, string? Denied) Accept(Socket socket, ConnectionIncidents incidents)
    {
        // A reply is one send of a whole frame: Nagle's algorithm would only hold the next frame back for the last one's ACK.
        socket.NoDelay = true;
        return (new CallerIdentity(Binding, remoteAddress: socket.RemoteEndPoint?.ToString()), null);
    }

    /// <summary>The address a client dials for a listener on every address: loopback, which reaches it from this machine (and from a published port).</summary>
    private static IPAddress Dialled(IPAddress bound) =>
        bound.Equals(IPAddress.Any) ? IPAddress.Loopback : bound.Equals(IPAddress.IPv6Any) ? IPAddress.IPv6Loopback : bound;
}
