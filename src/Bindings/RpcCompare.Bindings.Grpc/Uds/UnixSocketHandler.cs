using System.Net.Sockets;

namespace RpcCompare.Bindings.Grpc.Uds;

/// <summary>
/// HTTP/2 over a Unix domain socket, as grpc-dotnet's documentation connects to one: the handler
/// opens every connection to the socket, whatever the request's authority says.
/// </summary>
public static class UnixSocketHandler
{
    /// <summary>Sends every connection of <paramref name="handler"/> to the socket at <paramref name="socketPath"/>.</summary>
    public static SocketsHttpHandler ConnectingTo(this SocketsHttpHandler handler, string socketPath)
    {
        ArgumentNullException.ThrowIfNull(handler);
        var endpoint = new UnixDomainSocketEndPoint(socketPath);
        handler.ConnectCallback = async (_, cancellationToken) =>
        {
            var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            try
            {
                await socket.ConnectAsync(endpoint, cancellationToken).ConfigureAwait(false);
                return new NetworkStream(socket, ownsSocket: true);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
        };
        return handler;
    }
}
