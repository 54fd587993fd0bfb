using System.Net;
using System.Net.Sockets;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// What differs between fast-uds and fast-tcp on the server side: where the listening socket is,
/// the address clients dial, and who a connection's caller is. Everything after the accept
/// (frames, limits, dispatch, push) is the same <see cref="FastServer"/> and connection code.
/// </summary>
internal abstract class FastListener
{
    /// <summary>The binding's name (BindingNames).</summary>
    public abstract string Binding { get; }

    public abstract FastBindingOptions Options { get; }

    /// <summary>Checks the settings and opens the listening socket; returns it with the address clients dial.</summary>
    public abstract (Socket Socket, string Address) Open();

    /// <summary>Sets an accepted socket up; returns its caller and, when it is not served, why (counted in <paramref name="incidents"/>).</summary>
    public abstract (CallerIdentity Caller, string? Denied) Accept(Socket socket, ConnectionIncidents incidents);

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
