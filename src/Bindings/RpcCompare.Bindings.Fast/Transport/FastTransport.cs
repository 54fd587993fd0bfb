using System.Net.Sockets;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>
/// The bytes of one connection: the socket itself (<see cref="SocketTransport"/>, both bindings'
/// default), or TLS over it (<see cref="TlsTransport"/>, fast-tcp on a host with --tls). Receives
/// and sends block. A failing socket throws its <see cref="SocketException"/> whichever it is, so
/// the code above tells a timeout, a reset and an end the same way on both.
/// </summary>
internal abstract class FastTransport : IDisposable
{
    protected FastTransport(Socket socket)
    {
        Socket = socket;
    }

    /// <summary>The connection's socket: its timeouts, polls, shutdown and peer.</summary>
    public Socket Socket { get; }

    /// <summary>
    /// Whether the socket shows every byte still to be read, so that a poll or
    /// <see cref="Socket.Available"/> saying "nothing" means nothing has arrived. Then a waiter may
    /// spin on the socket before it blocks, and a reader may sleep in poll() while callers read
    /// their own replies. TLS reads whole records ahead of what it hands out, bytes the socket no
    /// longer shows: its readers block in <see cref="Receive"/> instead, and nobody spins.
    /// </summary>
    public abstract bool SocketShowsEverything { get; }

    /// <summary>
    /// How long one <see cref="Receive"/> may wait before it throws a <see cref="SocketException"/>
    /// that timed out; 0 (the default) for as long as it takes.
    /// </summary>
    public virtual void SetReceiveTimeout(int milliseconds) => Socket.ReceiveTimeout = milliseconds;

    /// <summary>
    /// How long one send may make no progress (the peer's receive buffer full) before it throws a
    /// <see cref="SocketException"/> that timed out; 0 (the default) for as long as it takes. On Linux a
    /// blocking send that timed out after some bytes went returns their count, and the rest is sent anew:
    /// a large frame to a slow reader that keeps reading is not cut (FastServerTests checks it on a Unix
    /// socket and over TCP).
    /// </summary>
    public void SetSendTimeout(int milliseconds) => Socket.SendTimeout = milliseconds;

    /// <summary>Some bytes, as many as have arrived up to the destination's length; 0 at the end of the stream.</summary>
    public abstract int Receive(Span<byte> destination);

    /// <summary>Every byte of <paramref name="frame"/>, blocking while the peer's buffer is full.</summary>
    public abstract void Send(ReadOnlySpan<byte> frame);

    /// <summary>
    /// Shuts both directions down, from any thread: a receive or send blocked on the socket returns, and the
    /// peer sees the end. Nothing when the socket is already closed.
    /// </summary>
    public void ShutDown()
    {
        try
        {
            Socket.Shutdown(SocketShutdown.Both);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Already closed.
        }
    }

    public virtual void Dispose() => Socket.Dispose();
}

/// <summary>Frames straight to and from the socket: one system call per send or receive, nothing between.</summary>
internal sealed class SocketTransport(Socket socket) : FastTransport(socket)
{
    public override bool SocketShowsEverything => true;

    public override int Receive(Span<byte> destination) => ReceiveSome(Socket, destination);

    public override void Send(ReadOnlySpan<byte> frame) => SendAll(Socket, frame);

    /// <summary>One blocking receive: what has arrived, 0 at the end of the stream; a failure (a timeout too) as its <see cref="SocketException"/>.</summary>
    public static int ReceiveSome(Socket socket, Span<byte> destination)
    {
        var received = socket.Receive(destination, SocketFlags.None, out var error);
        return error == SocketError.Success ? received : throw new SocketException((int)error);
    }

    /// <summary>Every byte: a blocking send may take part of a frame larger than the socket's send buffer, so the rest follows until none is left.</summary>
    public static void SendAll(Socket socket, ReadOnlySpan<byte> frame)
    {
        while (!frame.IsEmpty)
        {
            frame = frame[socket.Send(frame)..];
        }
    }
}
