using System.Net;
using System.Net.Sockets;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>
/// Where a fast client connects: fast-uds, a socket file's absolute path; fast-tcp,
/// "tcp://host:port" (an IP address or a name, as in a container network). Its sockets get the
/// binding's buffer sizes, and on TCP no Nagle delay.
/// </summary>
internal sealed class FastEndpoint
{
    private FastEndpoint(string binding, string address, EndPoint endPoint)
    {
        Binding = binding;
        Address = address;
        EndPoint = endPoint;
    }

    /// <summary>What the socket connects to: a Unix socket, an IP address and port, or a name and port.</summary>
    public EndPoint EndPoint { get; }

    /// <summary>The binding's name, for messages.</summary>
    public string Binding { get; }

    /// <summary>The address as the caller gave it.</summary>
    public string Address { get; }

    /// <summary>The address fast-tcp publishes for a listener: "tcp://127.0.0.1:5000", "tcp://[::1]:5000".</summary>
    public static string TcpAddress(IPAddress address, int port) => $"tcp://{new IPEndPoint(address, port)}";

    /// <summary>Reads <paramref name="address"/> as <paramref name="binding"/>'s; throws <see cref="ArgumentException"/> saying what one looks like.</summary>
    public static FastEndpoint Parse(string binding, string address)
    {
        if (binding == BindingNames.FastUds)
        {
            return !string.IsNullOrEmpty(address) && Path.IsPathRooted(address)
                ? new FastEndpoint(binding, address, new UnixDomainSocketEndPoint(address))
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
        return new FastEndpoint(binding, address, endPoint);
    }

    public Socket Connect()
    {
        var socket = NewSocket();
        try
        {
            socket.Connect(EndPoint);
            return socket;
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw CouldNotConnect(e);
        }
    }

    public async Task<Socket> ConnectAsync(CancellationToken cancellationToken)
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
}
