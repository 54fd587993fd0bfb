using System.Net.Sockets;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>
/// The send buffer both sides give their sockets. Linux's default for a Unix socket (212,992 bytes,
/// <c>net.core.wmem_default</c>) is smaller than a 248,832-byte message, so a blocking send of one
/// sleeps until the peer has read part of it and is then woken: a second wake-up per message.
/// With room for the whole message the send returns at once.
/// </summary>
internal static class SocketBuffers
{
    /// <summary>
    /// 1 MiB: a limit on bytes queued, not memory reserved. The kernel caps it at
    /// <c>net.core.wmem_max</c> without an error (the default is 212,992 there too).
    /// </summary>
    public const int SendBufferSize = 1024 * 1024;

    public static void Apply(Socket socket)
    {
        try
        {
            socket.SendBufferSize = SendBufferSize;
        }
        catch (SocketException)
        {
            // A platform that refuses the size keeps its default: slower for large messages, not wrong.
        }
    }
}
