using System.Net;
using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// What differs between fast-uds and fast-tcp on the server side: where the listening socket is,
/// the address clients dial, what a connection's bytes travel over (the socket, or TLS) and who its
/// caller is. Everything after that (frames, limits, dispatch, push) is the same
/// <see cref="FastServer"/> and connection code.
/// </summary>
internal abstract class FastListener
{
    /// <summary>The binding's name (BindingNames).</summary>
    public abstract string Binding { get; }

    public abstract FastBindingOptions Options { get; }

    /// <summary>Whether connections speak TLS (then nothing spins on their sockets: TLS reads records ahead of what a socket shows).</summary>
    public virtual bool UsesTls => false;

    /// <summary>Checks the settings and opens the listening socket; returns it with the address clients dial.</summary>
    public abstract (Socket Socket, string Address) Open();

    /// <summary>On the accept thread: sets an accepted socket up and returns what its frames will travel over, nothing read or sent yet.</summary>
    public virtual FastTransport Transport(Socket socket) => new SocketTransport(socket);

    /// <summary>
    /// On the connection's own thread, before its first frame: negotiates what the transport needs (a
    /// TLS handshake, which throws <see cref="TlsHandshakeException"/> when it fails), then returns the
    /// caller and, when it is not served, why (counted in <paramref name="incidents"/>).
    /// </summary>
    public abstract (CallerIdentity Caller, string? Denied) Accept(FastTransport transport, ConnectionIncidents incidents);

    /// <summary>Binds <paramref name="socket"/> to <paramref name="endPoint"/> and listens; disposes it if either fails.</summary>
    protected static Socket Listen(Socket socket, EndPoint endPoint)
    {
        try
        {
            socket.Bind(endPoint);
            socket.Listen(512);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Called once the listener is closed: removes what it left behind (a socket file).</summary>
    public virtual void Closed(string address)
    {
    }
}
