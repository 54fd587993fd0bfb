using System.Net;
using System.Net.Sockets;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>
/// Where a fast client connects: fast-uds, a socket file's absolute path; fast-tcp,
/// "tcp://host:port" (an IP address or a name, as in a container network), in TLS when the client
/// was given TLS options (as wcf-nettcp, whose address cannot say so either). Its sockets get the
/// binding's buffer sizes, and on TCP no Nagle delay.
/// </summary>
internal sealed class FastEndpoint
{
    /// <summary>How long a client's TLS handshake may take: the Kestrel bindings' default handshake timeout.</summary>
    public static readonly TimeSpan HandshakeTimeout = Limits.FrameworkConnectionOptions.DefaultHandshakeTimeout;

    private FastEndpoint(string binding, string address, EndPoint endPoint, string host, ClientTlsOptions? tls)
    {
        Binding = binding;
        Address = address;
        EndPoint = endPoint;
        Host = host;
        Tls = tls;
    }

    /// <summary>What the socket connects to: a Unix socket, an IP address and port, or a name and port.</summary>
    public EndPoint EndPoint { get; }

    /// <summary>The binding's name, for messages.</summary>
    public string Binding { get; }

    /// <summary>The address as the caller gave it.</summary>
    public string Address { get; }

    /// <summary>The host name or address dialled: the name a server certificate must hold when it is not pinned.</summary>
    public string Host { get; }

    /// <summary>fast-tcp in TLS, trusting the server as these say; null for plaintext (always on fast-uds).</summary>
    public ClientTlsOptions? Tls { get; }

    /// <summary>The address fast-tcp publishes for a listener: "tcp://127.0.0.1:5000", "tcp://[::1]:5000".</summary>
    public static string TcpAddress(IPAddress address, int port) => $"tcp://{new IPEndPoint(address, port)}";

    /// <summary>
    /// Reads <paramref name="address"/> as <paramref name="binding"/>'s; throws <see cref="ArgumentException"/> saying what one looks like.
    /// <paramref name="tls"/> turns TLS on for fast-tcp; fast-uds ignores it, as the other Unix-socket bindings do.
    /// </summary>
    public static FastEndpoint Parse(string binding, string address, ClientTlsOptions? tls = null)
    {
        if (binding == BindingNames.FastUds)
        {
            return !string.IsNullOrEmpty(address) && Path.IsPathRooted(address)
                ? new FastEndpoint(binding, address, new UnixDomainSocketEndPoint(address), "localhost", null)
                : throw new ArgumentException($"A fast-uds address is an absolute socket path; got '{address}'.", nameof(address));
        }

        if (binding != BindingNames.FastTcp)
        {
            throw new ArgumentException($"'{binding}' is not a fast binding ({BindingNames.FastTcp}, {BindingNames.FastUds}).", nameof(binding));
        }

        if (!Uri.TryCreate(address, UriKind.Absolute, out var uri) || uri.Scheme != "tcp" || uri.Port <= 0 || uri.AbsolutePath != "/" || uri.Query.Length > 0)
        {
            throw new ArgumentException($"A fast-tcp address is tcp://host:port, such as tcp://127.0.0.1:5000; got '{address}'.", nameof(address));
        }

        EndPoint endPoint = IPAddress.TryParse(uri.IdnHost, out var ip) ? new IPEndPoint(ip, uri.Port) : new DnsEndPoint(uri.IdnHost, uri.Port);
        return new FastEndpoint(binding, address, endPoint, uri.IdnHost, tls);
    }

    /// <summary>A connection for blocking use: the socket, or TLS over it once the handshake is done (a failed one throws <see cref="TlsHandshakeException"/>).</summary>
    public FastTransport Connect()
    {
        var socket = NewSocket();
        try
        {
            socket.Connect(EndPoint);
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw CouldNotConnect(e);
        }

        if (Tls is not { } tls)
        {
            return new SocketTransport(socket);
        }

        var secured = new TlsTransport(socket);
        try
        {
            secured.AuthenticateAsClient(Host, tls, HandshakeTimeout);
            return secured;
        }
        catch (TlsHandshakeException e)
        {
            throw NotSecured(e);
        }
    }

    /// <summary>A connection for asynchronous use (the push client): a stream of the socket, in TLS when asked.</summary>
    public async Task<Stream> ConnectStreamAsync(CancellationToken cancellationToken)
    {
        var socket = await ConnectAsync(cancellationToken);
        if (Tls is not { } tls)
        {
            return new NetworkStream(socket, ownsSocket: true);
        }

        try
        {
            return await TlsTransport.AuthenticateAsClientAsync(socket, Host, tls, HandshakeTimeout, cancellationToken);
        }
        catch (TlsHandshakeException e)
        {
            throw NotSecured(e);
        }
    }

    private async Task<Socket> ConnectAsync(CancellationToken cancellationToken)
    {
        var socket = NewSocket();
        try
        {
            await socket.ConnectAsync(EndPoint, cancellationToken);
            return socket;
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw CouldNotConnect(e);
        }
        catch (OperationCanceledException)
        {
            socket.Dispose();
            throw;
        }
    }

    public override string ToString() => $"{Binding} at {Address}";

    private Socket NewSocket()
    {
        var socket = EndPoint switch
        {
            UnixDomainSocketEndPoint => new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified),
            IPEndPoint ip => new Socket(ip.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true },
            // A name may resolve to IPv4 or IPv6: a dual-mode socket connects to either.
            _ => new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true },
        };
        SocketBuffers.Apply(socket);
        return socket;
    }

    private IOException CouldNotConnect(SocketException e) => new($"Could not connect to {this}: {e.Message}", e);

    // The handshake's own exception inside: a refused certificate's reason is its innermost message.
    private IOException NotSecured(TlsHandshakeException e) => new($"Could not connect to {this} in TLS: {e.Message}", e);
}
