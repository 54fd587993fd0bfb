using System.Buffers;
using RpcCompare.Bindings.Telemetry;

namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>
/// Builds one frame in a pooled buffer: the body is written after room left for the header, then
/// <see cref="Complete"/> fills the header in, so a frame goes out in one send. Reused frame after
/// frame by its owner (a connection); the buffer grows by renting a larger one and stays that size.
/// </summary>
internal sealed class FrameWriter : IBufferWriter<byte>, IDisposable
{
    private byte[] _buffer;
    private int _written = FrameHeader.Size;
    private FrameFlags _flags;

    public FrameWriter(int initialSize = 4096)
    {
        _buffer = ArrayPool<byte>.Shared.Rent(initialSize);
    }

    /// <summary>Bytes of body written so far.</summary>
    public int BodyLength => _written - FrameHeader.Size;

    /// <summary>The body's bytes but a request's trace context: what a message-size limit counts.</summary>
    public int MessageLength => TraceContext.MessageLength(BodyLength, _flags);

    /// <summary>Starts a new frame, keeping the buffer.</summary>
    public void Reset()
    {
        _written = FrameHeader.Size;
        _flags = FrameFlags.None;
    }

    /// <summary>
    /// Starts a request: when the calling thread has a current span, its trace context goes first
    /// (<see cref="TraceContext"/>), so the server's span for the call continues the caller's trace.
    /// </summary>
    public void ResetRequest()
    {
        Reset();
        // A span in the old hierarchical id format has no W3C ids to send.
        if (BinaryTraceContext.Caller is { } caller)
        {
            TraceContext.Write(GetSpan(TraceContext.Size), caller);
            Advance(TraceContext.Size);
            _flags = FrameFlags.TraceContext;
        }
    }

    /// <summary>The whole frame, header filled in: valid until the next write or <see cref="Reset"/>.</summary>
    public ReadOnlySpan<byte> Complete(FrameKind kind, ushort operation, uint callId) => CompleteMemory(kind, operation, callId).Span;

    /// <summary>As <see cref="Complete"/>, for an asynchronous send.</summary>
    public ReadOnlyMemory<byte> CompleteMemory(FrameKind kind, ushort operation, uint callId)
    {
        new FrameHeader(kind, operation, callId, BodyLength, kind == FrameKind.Request ? _flags : FrameFlags.None).Write(_buffer);
        return _buffer.AsMemory(0, _written);
    }

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (_written + count > _buffer.Length)
        {
            throw new InvalidOperationException("Advanced past the buffer handed out.");
        }

        _written += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsMemory(_written);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsSpan(_written);
    }

    public void Dispose()
    {
        var buffer = Interlocked.Exchange(ref _buffer, []);
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private void Ensure(int sizeHint)
    {
        var needed = _written + Math.Max(sizeHint, 1);
        if (needed <= _buffer.Length)
        {
            return;
        }

        var larger = ArrayPool<byte>.Shared.Rent(Math.Max(needed, _buffer.Length * 2));
        _buffer.AsSpan(0, _written).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = larger;
    }
}
