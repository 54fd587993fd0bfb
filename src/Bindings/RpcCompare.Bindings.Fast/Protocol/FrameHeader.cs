using System.Buffers.Binary;

namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>
/// The 12 bytes before every body, little-endian: u32 length of what follows the length field
/// (8 + body), u8 <see cref="FrameKind"/>, u8 <see cref="FrameFlags"/> (only a request's
/// <see cref="FrameFlags.TraceContext"/>: any other bit is an error), u16 operation id (requests),
/// u32 call id chosen by the client (0: the connection itself, or a one-way request, which gets no answer).
/// An empty call is 12 bytes each way.
/// </summary>
internal readonly record struct FrameHeader(FrameKind Kind, ushort Operation, uint CallId, int BodyLength, FrameFlags Flags = FrameFlags.None)
{
    public const int Size = 12;

    /// <summary>Bytes of the header the length field counts (kind, flags, operation, call id).</summary>
    private const int Counted = Size - sizeof(uint);

    public void Write(Span<byte> destination)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(destination, (uint)(Counted + BodyLength));
        destination[4] = (byte)Kind;
        destination[5] = (byte)Flags;
        BinaryPrimitives.WriteUInt16LittleEndian(destination[6..], Operation);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[8..], CallId);
    }

    /// <summary>Writes the Cancel frame of call <paramref name="callId"/> (a header alone) and returns it.</summary>
    public static ReadOnlySpan<byte> WriteCancel(Span<byte> destination, uint callId)
    {
        new FrameHeader(FrameKind.Cancel, 0, callId, 0).Write(destination);
        return destination[..Size];
    }

    /// <summary>
    /// Reads and checks a header: the length is unsigned and compared with the limit before anything
    /// is allocated, so a 2 GB or 4 GB prefix is refused, never believed.
    /// </summary>
    /// <param name="source">At least <see cref="Size"/> bytes.</param>
    /// <param name="maxBody">The largest body the reader accepts; a larger one is <see cref="FrameTooLargeException"/>.</param>
    public static FrameHeader Read(ReadOnlySpan<byte> source, int maxBody)
    {
        var kind = (FrameKind)source[4];
        if (kind is not (FrameKind.Request or FrameKind.Reply or FrameKind.Error or FrameKind.Cancel or FrameKind.StreamData or FrameKind.StreamEnd or FrameKind.Bind or FrameKind.Bound
            or FrameKind.Subscribe or FrameKind.Unsubscribe or FrameKind.Publish or FrameKind.Notification or FrameKind.SubscriptionEnded))
        {
            throw new FastProtocolException($"frame kind {source[4]} is not one of the protocol's");
        }

        var flags = (FrameFlags)source[5];
        if (flags != FrameFlags.None && !(flags == FrameFlags.TraceContext && kind == FrameKind.Request))
        {
            throw new FastProtocolException($"frame flags 0x{source[5]:x2} are not defined for a {kind} frame");
        }

        // Kind and flags first: bytes that are no frame at all are told apart from a frame that is too large.
        var length = BinaryPrimitives.ReadUInt32LittleEndian(source);
        if (length < Counted)
        {
            throw new FastProtocolException($"a frame length of {length} is shorter than its own header");
        }

        var header = new FrameHeader(kind, BinaryPrimitives.ReadUInt16LittleEndian(source[6..]), BinaryPrimitives.ReadUInt32LittleEndian(source[8..]),
            length - Counted > int.MaxValue ? int.MaxValue : (int)(length - Counted), flags);
        if (length - Counted > (uint)maxBody)
        {
            throw new FrameTooLargeException(header, length - Counted, maxBody);
        }

        return header;
    }
}

/// <summary>A well-formed frame whose body is larger than the reader accepts.</summary>
internal sealed class FrameTooLargeException(FrameHeader header, long bodyLength, int limit)
    : Exception($"a {bodyLength:#,0}-byte message is larger than the {limit:#,0} bytes accepted")
{
    public FrameHeader Header { get; } = header;

    public long BodyLength { get; } = bodyLength;
}
