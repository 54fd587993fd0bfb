using System.Net.Sockets;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>Opens a client's socket to a fast-uds server, with the binding's buffer sizes.</summary>
internal static class UdsConnector
{
    public static Socket Connect(string path)
    {
        var socket = NewSocket();
        try
        {
            socket.Connect(new UnixDomainSocketEndPoint(path));
            return socket;
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw CouldNotConnect(path, e);
        }
    }

    public static async Task<Socket> ConnectAsync(string path, CancellationToken cancellationToken)
    {
        var socket = NewSocket();
        try
        {
            await socket.ConnectAsync(new UnixDomainSocketEndPoint(path), cancellationToken);
            return socket;
        }
        catch (SocketException e)
        {
            socket.Dispose();
            throw CouldNotConnect(path, e);
        }
        catch (OperationCanceledException)
        {
            socket.Dispose();
            throw;
        }
    }

    private static Socket NewSocket()
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        SocketBuffers.Apply(socket);
        return socket;
    }

    private static IOException CouldNotConnect(string path, SocketException e) => new($"Could not connect to fast-uds at {path}: {e.Message}", e);
}
