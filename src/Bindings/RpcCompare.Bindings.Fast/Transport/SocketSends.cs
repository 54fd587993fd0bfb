using System.Net.Sockets;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>Blocking sends of whole frames.</summary>
internal static class SocketSends
{
    /// <summary>
    /// Sends every byte of <paramref name="frame"/>: a blocking send may take part of it (a frame
    /// larger than the socket's send buffer), so the rest follows until none is left. A socket
    /// error is the caller's to handle; a frame may then be cut short.
    /// </summary>
    public static void SendAll(Socket socket, ReadOnlySpan<byte> frame)
    {
        while (!frame.IsEmpty)
        {
            frame = frame[socket.Send(frame)..];
        }
    }
}
