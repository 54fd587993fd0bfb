using System.Diagnostics;

namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>
/// The caller's W3C trace context at the front of a request's body, when the header's
/// <see cref="FrameFlags.TraceContext"/> flag says so: the binary form of a <c>traceparent</c>,
/// 26 bytes: version (0), trace id (16), parent span id (8), trace flags (1). The server's span for
/// the call continues that trace. Sent only by a client with a current span, so an untraced call
/// costs nothing on the wire.
/// </summary>
internal static class TraceContext
{
    public const int Size = 26;

    private const byte Version = 0;

    /// <summary>Writes <paramref name="caller"/>'s context into the first <see cref="Size"/> bytes of <paramref name="destination"/>.</summary>
    public static void Write(Span<byte> destination, Activity caller)
    {
        destination[0] = Version;
        caller.TraceId.CopyTo(destination.Slice(1, 16));
        caller.SpanId.CopyTo(destination.Slice(17, 8));
        destination[25] = (byte)caller.ActivityTraceFlags;
    }

    /// <summary>
    /// The context at the front of <paramref name="body"/> when <paramref name="wanted"/> (something records the
    /// server's spans), else default once its shape is checked; a <see cref="FastProtocolException"/> for bytes that
    /// are not a context. One with an all-zero trace or span id (W3C: invalid) is ignored: the call is served, its
    /// span starts a trace of its own.
    /// </summary>
    public static ActivityContext Read(ReadOnlySpan<byte> body, bool wanted)
    {
        if (body.Length < Size || body[0] != Version)
        {
            throw new FastProtocolException(body.Length < Size
                ? $"a request flagged with a trace context is {body.Length} bytes, shorter than the {Size}-byte context"
                : $"a trace context of version {body[0]}, not {Version}");
        }

        var trace = body.Slice(1, 16);
        var span = body.Slice(17, 8);
        if (!wanted || !trace.ContainsAnyExcept((byte)0) || !span.ContainsAnyExcept((byte)0))
        {
            return default;
        }

        return new ActivityContext(ActivityTraceId.CreateFromBytes(trace), ActivitySpanId.CreateFromBytes(span),
            (ActivityTraceFlags)(body[25] & (byte)ActivityTraceFlags.Recorded), traceState: null, isRemote: true);
    }

    /// <summary>
    /// A request body taken apart: the message, and the caller's context when the flags say one comes first
    /// (<see cref="Read"/>); the whole body and no parent otherwise.
    /// </summary>
    public static ReadOnlySpan<byte> Split(ReadOnlySpan<byte> body, FrameFlags flags, bool wanted, out ActivityContext parent)
    {
        if (flags != FrameFlags.TraceContext)
        {
            parent = default;
            return body;
        }

        parent = Read(body, wanted);
        return body[Size..];
    }

    /// <summary>The message's length in a request body of <paramref name="bodyLength"/> bytes: the context is not part of it, as gRPC's headers are not.</summary>
    public static int MessageLength(int bodyLength, FrameFlags flags) => flags == FrameFlags.TraceContext ? bodyLength - Size : bodyLength;
}

/// <summary>The header's flags byte. Values are the wire's; any other bit, or a flag on a frame it does not belong to, is a protocol error.</summary>
[Flags]
internal enum FrameFlags : byte
{
    None = 0,

    /// <summary>A request whose body begins with the caller's <see cref="Protocol.TraceContext"/>.</summary>
    TraceContext = 0x01,
}
