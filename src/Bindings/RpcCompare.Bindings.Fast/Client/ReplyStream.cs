using System.Buffers;
using System.Runtime.ExceptionServices;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// A reply that is a Stream, read from the connection as the caller reads (WCF's streamed transfer:
/// nothing is buffered beyond one 64 KiB chunk). The connection is the stream's until it ends, then
/// goes back to the pool; a stream disposed before its end takes the connection with it.
/// </summary>
internal sealed class ReplyStream : Stream
{
    private readonly FastClientConnection _connection;
    private readonly FastConnectionPool _pool;
    private readonly uint _callId;
    private readonly OperationDescription _operation;
    private byte[] _chunk = ArrayPool<byte>.Shared.Rent(Protocol.StreamChunks.Size);
    private int _offset;
    private int _length;
    private bool _ended;
    private bool _released;

    public ReplyStream(FastClientConnection connection, FastConnectionPool pool, uint callId, OperationDescription operation)
    {
        _connection = connection;
        _pool = pool;
        _callId = callId;
        _operation = operation;
    }

    public override bool CanRead => !_released || _offset < _length;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException("A streamed reply's length is known only at its end.");

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer) => Read(buffer, CancellationToken.None);

    // Synchronous (the connection's receive blocks), but the token ends a wait for the next chunk. A failure is the
    // returned task's, as a stream's asynchronous read reports it, not thrown from the call.
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<int>(cancellationToken);
        }

        try
        {
            return new ValueTask<int>(Read(buffer.Span, cancellationToken));
        }
        catch (OperationCanceledException e)
        {
            return Cancelled(e);
        }
        catch (Exception e)
        {
            return ValueTask.FromException<int>(e);
        }
    }

    // A cancelled task, as a stream's cancelled read is, that still throws this exception when awaited (it names the
    // caller's token and says the connection was closed): an async method's escaping cancellation does both.
    private static async ValueTask<int> Cancelled(OperationCanceledException cancellation)
    {
        await Task.CompletedTask;
        ExceptionDispatchInfo.Throw(cancellation);
        return 0;
    }

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            if (!_ended)
            {
                // Frames of this stream are still coming: the connection cannot serve another call.
                _connection.Dispose();
            }

            Release();
            var chunk = Interlocked.Exchange(ref _chunk, []);
            if (chunk.Length > 0)
            {
                ArrayPool<byte>.Shared.Return(chunk);
            }
        }

        base.Dispose(disposing);
    }

    private int Read(Span<byte> buffer, CancellationToken cancellationToken)
    {
        ObjectDisposedException.ThrowIf(_chunk.Length == 0, this);
        while (_offset == _length && !_ended)
        {
            if (!NextChunk(cancellationToken))
            {
                break;
            }
        }

        var copied = Math.Min(buffer.Length, _length - _offset);
        _chunk.AsSpan(_offset, copied).CopyTo(buffer);
        _offset += copied;
        return copied;
    }

    /// <summary>
    /// Waits for the next chunk, at most the call timeout (<see cref="StreamedWait"/>, which closes the
    /// connection to end the wait); false at the stream's end.
    /// </summary>
    private bool NextChunk(CancellationToken cancellationToken)
    {
        // Disposed before the connection goes back to the pool (End): once disposed, the wait cannot end any
        // more, so it never closes a connection another call has rented meanwhile.
        using var wait = StreamedWait.Start(_connection, _connection.CallTimeout, cancellationToken);
        bool more;
        try
        {
            more = _connection.NextChunk(_callId, _operation, out var chunk);
            chunk.CopyTo(_chunk);
            (_offset, _length) = (0, chunk.Length);
        }
        catch (Exception e)
        {
            // The server's error (or a broken connection) ends the stream; the connection goes back, or away.
            wait?.Dispose();
            End();
            if (e is IOException && wait is { Ended: true })
            {
                throw wait.Failure(e, FastClientErrors.ReplyStreamStalled(_operation.Name, wait.Timeout));
            }

            throw;
        }

        wait?.Dispose();
        if (more && wait is { Ended: true })
        {
            // Ended as a chunk came: the connection is closed and the rest cannot come, so the read fails as the caller
            // asked (ended as the stream's end came, the stream is whole and ends as usual).
            (_offset, _length) = (0, 0);
            End();
            throw wait.Failure(null, FastClientErrors.ReplyStreamStalled(_operation.Name, wait.Timeout));
        }

        if (!more)
        {
            End();
        }

        return more;
    }

    private void End()
    {
        _ended = true;
        Release();
    }

    private void Release()
    {
        if (!_released)
        {
            _released = true;
            _pool.Return(_connection);
        }
    }
}
