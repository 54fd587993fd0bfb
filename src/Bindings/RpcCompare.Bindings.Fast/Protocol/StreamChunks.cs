using System.Buffers;

namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>Sends one frame whose body is raw bytes; false once the connection is closed.</summary>
internal interface IFrameSender
{
    bool SendFrame(FrameKind kind, uint callId, ReadOnlySpan<byte> body);
}

/// <summary>A Stream sent as StreamData frames of at most <see cref="Size"/> bytes, then StreamEnd.</summary>
internal static class StreamChunks
{
    /// <summary>Bytes per StreamData frame: below the large-object threshold, so neither side makes large-object garbage.</summary>
    public const int Size = 64 * 1024;

    /// <summary>Reads <paramref name="source"/> to its end and sends it for <paramref name="callId"/>; stops early when the connection closes.</summary>
    public static void Send(Stream source, uint callId, IFrameSender sender)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(Size);
        try
        {
            int read;
            while ((read = source.Read(buffer, 0, Size)) > 0)
            {
                if (!sender.SendFrame(FrameKind.StreamData, callId, buffer.AsSpan(0, read)))
                {
                    return;
                }
            }

            sender.SendFrame(FrameKind.StreamEnd, callId, []);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
