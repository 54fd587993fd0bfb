using System.Net.Sockets;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>
/// The socket as <see cref="System.Net.Security.SslStream"/>'s inner stream, with one deadline for a
/// whole read of the TLS layer above it. A socket's receive timeout restarts at every system call,
/// and one TLS read (a whole record, up to 16 KB, or a whole handshake message) is many of them: a
/// peer sending a byte every few seconds would never time out, and would hold its connection's
/// thread and slot for good. Here each receive gets only what is left of <see cref="Deadline"/>,
/// and one past it throws <see cref="SocketError.TimedOut"/> as the socket would. Blocking, used
/// synchronously only.
/// </summary>
internal sealed class DeadlineSocketStream(Socket socket) : Stream
{
    private int _receiveTimeout;

    /// <summary>When the read under way must end (<see cref="Environment.TickCount64"/>); 0 for no deadline.</summary>
    public long Deadline { get; set; }

    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    public override int Read(Span<byte> buffer)
    {
        var timeout = 0;
        if (Deadline != 0)
        {
            var left = Deadline - Environment.TickCount64;
            timeout = left > 0 ? (int)Math.Min(left, int.MaxValue) : throw new SocketException((int)SocketError.TimedOut);
        }

        if (timeout != _receiveTimeout)
        {
            // A system call only when it changes: a connection without a deadline (a client) sets it once.
            socket.ReceiveTimeout = timeout;
            _receiveTimeout = timeout;
        }

        return SocketTransport.ReceiveSome(socket, buffer);
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer) => SocketTransport.SendAll(socket, buffer);

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();
}
