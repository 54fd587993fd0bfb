using System.Buffers;
using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Transport;

namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>
/// Reads frames from a connection (<see cref="FastTransport"/>) with blocking receives into one 64 KiB buffer: a receive takes what
/// has arrived, often several small frames, and each is parsed in place. A body larger than the
/// buffer is received into a rented array of its size. Used by one thread at a time.
/// </summary>
internal sealed class FrameReader : IDisposable
{
    /// <summary>The receive buffer: a power-of-two pool bucket below the large-object threshold.</summary>
    public const int BufferSize = 64 * 1024;

    private readonly FastTransport _transport;
    private readonly int _maxBody;
    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
    private byte[]? _large;
    private int _start;
    private int _end;
    private bool _inFrame;
    private SpinBackoff _backoff;

    public FrameReader(FastTransport transport, int maxBody)
    {
        _transport = transport;
        _maxBody = maxBody;
    }

    /// <summary>
    /// How long one frame may take to arrive once its first byte has; past it, <see cref="FrameStalledException"/>.
    /// Infinite by default (a client waits for its reply as long as the call takes).
    /// </summary>
    public TimeSpan FrameTimeout { get; set; } = Timeout.InfiniteTimeSpan;

    /// <summary>
    /// How long to poll the socket for bytes before each blocking receive (<see cref="SpinBeforeBlocking"/>),
    /// in Stopwatch ticks; 0 blocks at once, as does a transport whose socket does not show every byte to read (TLS).
    /// </summary>
    public long SpinTicks { get; set; }

    /// <summary>Asked before each spin; false blocks at once, when other work of this side needs the cores (the client: other calls in flight; the server: a call of this connection running elsewhere, or another connection handling a frame).</summary>
    public Func<bool>? MaySpin { get; set; }

    /// <summary>Bytes received and not yet read as frames: the next <see cref="TryRead"/> starts without waiting for the socket.</summary>
    public bool HasBuffered => _start != _end;

    /// <summary>True when no part of a frame has arrived: a receive that times out now found the connection idle, not stalled.</summary>
    public bool IsBetweenFrames => !_inFrame && _start == _end;

    /// <summary>
    /// The next frame, its body valid until the next call; false when the peer closed the connection
    /// between frames. Throws <see cref="FastProtocolException"/> for bytes that are no frame,
    /// <see cref="FrameTooLargeException"/> past the size limit (nothing of that body is read), and
    /// <see cref="FrameStalledException"/> or <see cref="SocketException"/> as the socket fails.
    /// </summary>
    public bool TryRead(out FrameHeader header, out ReadOnlySpan<byte> body)
    {
        header = default;
        body = default;
        ReturnLarge();
        if (_end - _start < FrameHeader.Size)
        {
            if (_end == _start)
            {
                _start = _end = 0;
            }

            if (!Fill(FrameHeader.Size, allowEnd: true, startedAt: 0))
            {
                return false;
            }
        }

        header = FrameHeader.Read(_buffer.AsSpan(_start, FrameHeader.Size), _maxBody);
        _start += FrameHeader.Size;
        var length = header.BodyLength;
        if (_end - _start >= length)
        {
            body = _buffer.AsSpan(_start, length);
            _start += length;
            return true;
        }

        _inFrame = true;

        var startedAt = Environment.TickCount64;
        if (length <= _buffer.Length)
        {
            Fill(length, allowEnd: false, startedAt);
            body = _buffer.AsSpan(_start, length);
            _start += length;
            _inFrame = false;
            return true;
        }

        // Larger than the buffer: its own array, the part already here first.
        _large = ArrayPool<byte>.Shared.Rent(length);
        var buffered = _end - _start;
        _buffer.AsSpan(_start, buffered).CopyTo(_large);
        _start = _end = 0;
        for (var read = buffered; read < length;)
        {
            read += Receive(_large.AsSpan(read, length - read), startedAt);
        }

        body = _large.AsSpan(0, length);
        _inFrame = false;
        return true;
    }

    public void Dispose()
    {
        ReturnLarge();
        var buffer = Interlocked.Exchange(ref _buffer, []);
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>Receives until <paramref name="count"/> bytes from <c>_start</c> are buffered; false for an end before the first byte when allowed.</summary>
    private bool Fill(int count, bool allowEnd, long startedAt)
    {
        if (_start + count > _buffer.Length)
        {
            // Move what is left to the front to make room.
            _buffer.AsSpan(_start, _end - _start).CopyTo(_buffer);
            _end -= _start;
            _start = 0;
        }

        while (_end - _start < count)
        {
            var received = ReceiveSome(_buffer.AsSpan(_end));
            if (received == 0)
            {
                if (allowEnd && _end == _start)
                {
                    return false;
                }

                throw new EndOfStreamException($"The connection closed {_end - _start} bytes into a frame.");
            }

            if (_end == _start && startedAt == 0)
            {
                startedAt = Environment.TickCount64;
            }

            _end += received;
            ThrowIfStalled(startedAt);
        }

        return true;
    }

    private int Receive(Span<byte> destination, long startedAt)
    {
        var received = ReceiveSome(destination);
        if (received == 0)
        {
            throw new EndOfStreamException("The connection closed inside a frame.");
        }

        ThrowIfStalled(startedAt);
        return received;
    }

    // Whatever has arrived, after a bounded spin for it; 0 at the end of the stream.
    private int ReceiveSome(Span<byte> destination)
    {
        if (SpinTicks > 0 && _transport.SocketShowsEverything)
        {
            // The owner's word first: a wait it declines does not use up one of the backoff's skips.
            if (MaySpin?.Invoke() == false)
            {
                SpinBeforeBlocking.Decline();
            }
            else if (_backoff.ShouldSpin() && _transport.Socket.Available == 0)
            {
                _backoff.Record(SpinBeforeBlocking.TryWaitForData(_transport.Socket, SpinTicks));
            }
        }

        return _transport.Receive(destination);
    }

    // A sender trickling a frame byte by byte is as stuck as one that stopped.
    private void ThrowIfStalled(long startedAt)
    {
        if (FrameTimeout != Timeout.InfiniteTimeSpan && startedAt != 0 && Environment.TickCount64 - startedAt > FrameTimeout.TotalMilliseconds)
        {
            throw new FrameStalledException(FrameTimeout);
        }
    }

    private void ReturnLarge()
    {
        if (_large is { } large)
        {
            _large = null;
            ArrayPool<byte>.Shared.Return(large);
        }
    }
}

/// <summary>A frame took longer than the frame timeout to arrive.</summary>
internal sealed class FrameStalledException(TimeSpan timeout) : Exception($"a frame took longer than {timeout.TotalSeconds:0.#} s to arrive");
