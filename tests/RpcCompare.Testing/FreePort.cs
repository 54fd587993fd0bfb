using System.Net;
using System.Net.Sockets;

namespace RpcCompare.Testing;

/// <summary>Loopback ports for servers a test starts where a fixed port would collide with a parallel test.</summary>
public static class FreePort
{
    /// <summary>
    /// A TCP port on 127.0.0.1 free at the moment of the call: the system gave it to a listener that
    /// is closed again. Another process may take it before the test binds it, which is rare enough here.
    /// </summary>
    public static int OnLoopback()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
