namespace RpcCompare.Service;

/// <summary>Reads a stream to its end without keeping it: what counting and measuring a transfer need.</summary>
public static class StreamDrain
{
    /// <summary>
    /// Reads <paramref name="stream"/> to its end and returns how many bytes it gave, into
    /// <paramref name="buffer"/> (a caller reading many streams passes its own), else a new 64 KiB one.
    /// </summary>
    public static async Task<long> ReadToEndAsync(Stream stream, byte[]? buffer = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(stream);
        // Stryker disable once Assignment : a caller's buffer or a new one read the same bytes; only the allocation differs
        buffer ??= new byte[64 * 1024];
        long length = 0;
        int read;
        while ((read = await stream.ReadAsync(buffer, cancellationToken)) > 0)
        {
            length += read;
        }

        return length;
    }
}
