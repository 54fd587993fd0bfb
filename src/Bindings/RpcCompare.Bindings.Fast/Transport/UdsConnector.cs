using System.Net.Sockets;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>Opens a client's blocking socket to a fast-uds server, with the binding's buffer sizes.</summary>
internal static class UdsConnector
{
    public static Socket Connect(string path)
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            SocketBuffers.Apply(socket);
            socket.Connect(new UnixDomainSocketEndPoint(path));
            return socket;
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw new IOException($"Could not connect to fast-uds at {path}: {e.Message}", e);
        }
    }
}
