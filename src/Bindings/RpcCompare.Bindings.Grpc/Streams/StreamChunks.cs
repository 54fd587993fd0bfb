using Grpc.Core;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Grpc.Streams;

/// <summary>Writes a <see cref="Stream"/> as <see cref="StreamChunk"/>s: the sending side of a Stream parameter or result.</summary>
internal static class StreamChunks
{
    /// <summary>
    /// Reads <paramref name="source"/> to its end and writes each piece as a chunk (a fresh array
    /// each: the writer may still hold the previous message). Returns the bytes sent.
    /// </summary>
    public static async Task<long> WriteAsync(Stream source, IAsyncStreamWriter<StreamChunk> writer, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(source);
        var buffer = new byte[StreamChunk.Size];
        long sent = 0;
        while (true)
        {
            // Fill a whole chunk where the source gives less per read (a network stream does), so the
            // message count follows the size, not the source's read pattern.
            var filled = 0;
            while (filled < buffer.Length)
            {
                var read = await source.ReadAsync(buffer.AsMemory(filled), cancellationToken).ConfigureAwait(false);
                if (read == 0)
                {
                    break;
                }

                filled += read;
            }

            if (filled == 0)
            {
                return sent;
            }

            await writer.WriteAsync(new StreamChunk { Data = buffer.AsSpan(0, filled).ToArray() }, cancellationToken).ConfigureAwait(false);
            sent += filled;
            if (filled < buffer.Length)
            {
                return sent;
            }
        }
    }
}
