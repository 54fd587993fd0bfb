using Grpc.Core;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Grpc.Streams;

/// <summary>
/// A read-only, forward-only <see cref="Stream"/> over the <see cref="StreamChunk"/>s of a gRPC
/// call: what the service reads for a Stream parameter and what the client reads for a Stream
/// result. Reads pull the next chunk only when the current one is used up, so at most one chunk
/// per stream is held. Disposing it disposes its owner (the client's call: an unfinished
/// download is cancelled).
/// </summary>
internal sealed class ChunkReadStream : Stream
{
    private readonly IAsyncStreamReader<StreamChunk> _chunks;
    private readonly Func<RpcException, Exception>? _mapError;
    private readonly IDisposable? _owner;
    private readonly CancellationToken _callToken;
    private byte[] _current;
    private int _offset;
    private bool _ended;
    private long _position;

    /// <param name="chunks">The call's incoming chunks.</param>
    /// <param name="first">A chunk already read (the client reads one before returning, so a fault surfaces at the call).</param>
    /// <param name="mapError">Turns a failed read into the fault the caller expects; null leaves the RpcException.</param>
    /// <param name="owner">Disposed with the stream.</param>
    /// <param name="callToken">The call's token: a read also ends when the call is cancelled.</param>
    public ChunkReadStream(IAsyncStreamReader<StreamChunk> chunks, StreamChunk? first, Func<RpcException, Exception>? mapError, IDisposable? owner, CancellationToken callToken)
    {
        _chunks = chunks;
        _current = first?.Data ?? [];
        _mapError = mapError;
        _owner = owner;
        _callToken = callToken;
    }

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException("A streamed gRPC result has no length until it ends.");

    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException("A streamed gRPC result reads forward only.");
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    // WCF's streamed contracts are synchronous as often as not: a sync read waits for the next chunk.
    public override int Read(Span<byte> buffer)
    {
        int copied;
        while (!TryCopy(buffer, out copied) && !_ended)
        {
            NextChunkAsync(CancellationToken.None).AsTask().GetAwaiter().GetResult();
        }

        return copied;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        int copied;
        while (!TryCopy(buffer.Span, out copied) && !_ended)
        {
            await NextChunkAsync(cancellationToken).ConfigureAwait(false);
        }

        return copied;
    }

    private async ValueTask NextChunkAsync(CancellationToken cancellationToken)
    {
        using var linked = cancellationToken.CanBeCanceled ? CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, _callToken) : null;
        try
        {
            if (await _chunks.MoveNext(linked?.Token ?? _callToken).ConfigureAwait(false))
            {
                _current = _chunks.Current.Data;
                _offset = 0;
            }
            else
            {
                _ended = true;
            }
        }
        catch (RpcException e) when (_mapError is not null)
        {
            throw _mapError(e);
        }
    }

    private bool TryCopy(Span<byte> buffer, out int copied)
    {
        copied = Math.Min(buffer.Length, _current.Length - _offset);
        if (copied <= 0 && buffer.Length > 0)
        {
            copied = 0;
            return false;
        }

        _current.AsSpan(_offset, copied).CopyTo(buffer);
        _offset += copied;
        _position += copied;
        return true;
    }

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException("A streamed gRPC result reads forward only.");

    public override void SetLength(long value) => throw new NotSupportedException("A streamed gRPC result is read-only.");

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException("A streamed gRPC result is read-only.");

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _owner?.Dispose();
        }

        base.Dispose(disposing);
    }
}
