using System.Diagnostics;
using RpcCompare.Bindings.Telemetry;

namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>
/// The caller's W3C trace context at the front of a request's body, when the header's
/// <see cref="FrameFlags.TraceContext"/> flag says so (<see cref="BinaryTraceContext"/>, 26 bytes).
/// </summary>
internal static class TraceContext
{
    public const int Size = BinaryTraceContext.Size;

    /// <summary>Writes <paramref name="caller"/>'s context into the first <see cref="Size"/> bytes of <paramref name="destination"/>.</summary>
    public static void Write(Span<byte> destination, Activity caller) => BinaryTraceContext.Write(destination, caller);

    /// <summary>
    /// The context at the front of <paramref name="body"/> when <paramref name="wanted"/> (something records the
    /// server's spans), else default once its shape is checked; a <see cref="FastProtocolException"/> for bytes that
    /// are not a context.
    /// </summary>
    public static ActivityContext Read(ReadOnlySpan<byte> body, bool wanted) =>
        BinaryTraceContext.TryRead(body, wanted, out var parent) is { } problem ? throw new FastProtocolException(problem) : parent;

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
