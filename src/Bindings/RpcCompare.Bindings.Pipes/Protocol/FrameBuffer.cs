using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using RpcCompare.Bindings.Telemetry;

namespace RpcCompare.Bindings.Pipes.Protocol;

/// <summary>
/// One connection's reusable frame buffer, rented from the shared pool. Writes go after a
/// reserved header so a frame is sent with one write and no copy. <see cref="Reset"/> gives a
/// large buffer back to the pool; connections call it once a frame is done, so a single 10 MB
/// call does not pin 10 MB per idle connection.
/// </summary>
internal sealed class FrameBuffer : IDisposable
{
    private const int InitialSize = 4096;
    private const int RetainLimit = 1024 * 1024;

    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(InitialSize);
    private int _position = PipeFrame.HeaderSize;
    private int _contextLength;

    public int BodyLength => _position - PipeFrame.HeaderSize;

    /// <summary>Starts a new frame, dropping an oversized buffer from the previous one.</summary>
    public void Reset()
    {
        if (_buffer.Length > RetainLimit)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = ArrayPool<byte>.Shared.Rent(InitialSize);
        }

        _position = PipeFrame.HeaderSize;
    }

    /// <summary>Fills in the header and returns the whole frame, ready to send.</summary>
    public ReadOnlyMemory<byte> Complete(byte code)
    {
        PipeFrame.WriteHeader(_buffer, BodyLength, code);
        return _buffer.AsMemory(0, _position);
    }

    /// <summary>
    /// Returns room for the next part of a body being received, having kept the
    /// <paramref name="received"/> bytes before it. The buffer grows with what has actually
    /// arrived, so a header that merely claims a large body costs nothing until the bytes come.
    /// </summary>
    public Memory<byte> ReceiveRoom(int received, int remaining)
    {
        var chunk = Math.Min(remaining, Math.Max(64 * 1024, received));
        _position = PipeFrame.HeaderSize + received;
        EnsureCapacity(received + chunk);
        return _buffer.AsMemory(_position, chunk);
    }

    /// <summary>The body received through <see cref="ReceiveRoom"/>.</summary>
    public Memory<byte> ReceivedBody(int length) => _buffer.AsMemory(PipeFrame.HeaderSize, length);

    /// <summary>Returns room for a received body of <paramref name="length"/> bytes, all at once.</summary>
    public Memory<byte> ReceiveBody(int length)
    {
        Reset();
        EnsureCapacity(length);
        return _buffer.AsMemory(PipeFrame.HeaderSize, length);
    }

    public Memory<byte> Header => _buffer.AsMemory(0, PipeFrame.HeaderSize);

    public void WriteByte(byte value) => Reserve(1)[0] = value;

    /// <summary>
    /// Begins a request of <paramref name="operation"/> in an empty frame: a call made within a span carries
    /// it first in the body (<see cref="PipeFrame.TraceContextFlag"/>), so the server's span continues the
    /// caller's trace. The frame's code, to hand to <see cref="Complete"/>.
    /// </summary>
    public byte BeginRequest(OperationCode operation)
    {
        _contextLength = 0;
        if (BinaryTraceContext.Caller is not { } caller)
        {
            return (byte)operation;
        }

        BinaryTraceContext.Write(Reserve(BinaryTraceContext.Size), caller);
        _contextLength = BinaryTraceContext.Size;
        return (byte)((byte)operation | PipeFrame.TraceContextFlag);
    }

    /// <summary>The request's message, without the trace context <see cref="BeginRequest"/> wrote: what the size limit counts.</summary>
    public int MessageLength => BodyLength - _contextLength;

    public void WriteBoolean(bool value) => WriteByte(value ? (byte)1 : (byte)0);

    public void WriteInt32(int value) => BinaryPrimitives.WriteInt32LittleEndian(Reserve(4), value);

    public void WriteInt64(long value) => BinaryPrimitives.WriteInt64LittleEndian(Reserve(8), value);

    public void WriteDouble(double value) => BinaryPrimitives.WriteDoubleLittleEndian(Reserve(8), value);

    public void WriteBytes(ReadOnlySpan<byte> value)
    {
        WriteInt32(value.Length);
        value.CopyTo(Reserve(value.Length));
    }

    public void WriteString(string? value)
    {
        value ??= "";
        var byteCount = Encoding.UTF8.GetByteCount(value);
        WriteInt32(byteCount);
        Encoding.UTF8.GetBytes(value, Reserve(byteCount));
    }

    /// <summary>Reserves <paramref name="count"/> bytes and advances past them; the caller fills them.</summary>
    public Span<byte> Reserve(int count)
    {
        EnsureCapacity(BodyLength + count);
        var span = _buffer.AsSpan(_position, count);
        _position += count;
        return span;
    }

    public void Dispose()
    {
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = [];
    }

    private void EnsureCapacity(int bodyLength)
    {
        var needed = PipeFrame.HeaderSize + (long)bodyLength;
        if (needed <= _buffer.Length)
        {
            return;
        }

        if (needed > Array.MaxLength)
        {
            throw new InvalidOperationException($"A frame of {needed} bytes cannot be buffered.");
        }

        // Stryker disable once Arithmetic : the pool rents powers of two, so for any buffer it pools (up to 1 GiB) the next one up from 'needed' is already twice the old one
        var larger = ArrayPool<byte>.Shared.Rent((int)Math.Min(Array.MaxLength, Math.Max(needed, _buffer.Length * 2L)));
        _buffer.AsSpan(0, _position).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = larger;
    }
}
