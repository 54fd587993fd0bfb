using System.Buffers.Binary;

namespace RpcCompare.Bindings.Pipes.Protocol;

/// <summary>
/// The framing, both directions:
/// <code>
/// [ u32 little-endian body length ][ u8 code ][ body ... ]
/// </code>
/// In a request the code is an <see cref="OperationCode"/>; in a reply it is 0 for success or an
/// <see cref="Contracts.RpcErrorCode"/>, whose body is then a UTF-8 message. One request is
/// answered by one reply on the same connection, in order.
/// <para>
/// Once a connection subscribed to a topic, the server also sends frames nobody asked for, between
/// replies: <see cref="Notification"/> (body: a notification) and <see cref="SubscriptionEnded"/>
/// (body: topic, reason), the latter when the server dropped the subscription. Their codes are
/// above every reply code, so a client tells them apart by the code alone.
/// </para>
/// <para>
/// A request's code with <see cref="TraceContextFlag"/> set carries the caller's W3C trace context in
/// the body's first 26 bytes (<see cref="RpcCompare.Bindings.Telemetry.BinaryTraceContext"/>), before the message; a client
/// sends it only for a call made within a span, and the message-size limit does not count it.
/// </para>
/// </summary>
internal static class PipeFrame
{
    public const int HeaderSize = 5;
    public const byte Success = 0;
    public const byte Notification = 0xF0;
    public const byte SubscriptionEnded = 0xF1;

    /// <summary>On a request's code: the body begins with the caller's trace context.</summary>
    public const byte TraceContextFlag = 0x80;

    public static void WriteHeader(Span<byte> destination, int bodyLength, byte code)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(destination, (uint)bodyLength);
        destination[4] = code;
    }

    /// <summary>Reads a header; the length is unsigned on the wire so a hostile 4 GB prefix stays positive here.</summary>
    public static (long BodyLength, byte Code) ReadHeader(ReadOnlySpan<byte> source) =>
        (BinaryPrimitives.ReadUInt32LittleEndian(source), source[4]);
}
