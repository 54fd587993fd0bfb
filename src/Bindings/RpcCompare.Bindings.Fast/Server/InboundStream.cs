using System.Buffers;
using System.IO.Pipelines;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// A request's Stream as the service reads it: the connection thread writes each StreamData frame
/// in and blocks while a megabyte is unread (back-pressure to the client through the socket), the
/// service reads on a thread of its own. Once the call is over the reading side is completed, so
/// whatever the client still sends is discarded instead of blocking the connection.
/// </summary>
internal sealed class InboundStream
{
    private readonly Pipe _pipe = new(new PipeOptions(pauseWriterThreshold: 1024 * 1024, resumeWriterThreshold: 512 * 1024, useSynchronizationContext: false));
    private volatile bool _done;

    public InboundStream()
    {
        Reader = _pipe.Reader.AsStream();
    }

    /// <summary>What the service is given.</summary>
    public Stream Reader { get; }

    /// <summary>
    /// Appends a chunk; blocks while the service is a megabyte behind. Returns at once once the call is
    /// over; throws <see cref="OperationCanceledException"/> when <paramref name="closing"/> fires (the connection is closing).
    /// </summary>
    public void Write(ReadOnlySpan<byte> chunk, CancellationToken closing)
    {
        if (_done)
        {
            return;
        }

        _pipe.Writer.Write(chunk);
        _done = _pipe.Writer.FlushAsync(closing).AsTask().GetAwaiter().GetResult().IsCompleted;
    }

    /// <summary>The stream ended (StreamEnd), or failed (the connection went away): the service's reads see it.</summary>
    public void Complete(Exception? failure = null)
    {
        _done = true;
        _pipe.Writer.Complete(failure);
    }

    /// <summary>The call is over: unread data and later chunks are discarded.</summary>
    public void Abandon() => _pipe.Reader.Complete();
}
