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
    /// <summary>How often a back-pressured request stream looks whether its client is still there.</summary>
    private static readonly TimeSpan HangUpCheck = TimeSpan.FromMilliseconds(100);

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
    /// over; throws <see cref="OperationCanceledException"/> when <paramref name="closing"/> fires (the connection is closing),
    /// and <see cref="EndOfStreamException"/> when <paramref name="clientHungUp"/> says the client has gone meanwhile.
    /// </summary>
    public void Write(ReadOnlySpan<byte> chunk, Func<bool> clientHungUp, CancellationToken closing)
    {
        if (_done)
        {
            return;
        }

        _pipe.Writer.Write(chunk);
        var flush = _pipe.Writer.FlushAsync(closing);
        _done = (flush.IsCompleted ? flush.Result : WaitForTheService(flush.AsTask(), clientHungUp)).IsCompleted;
    }

    /// <summary>
    /// Back-pressure: the connection's thread waits for the service to read on, looking now and then
    /// whether the client hung up (its call timed out or was cancelled). The bytes it sent before are
    /// still unread, so the receive would not see the hang-up until the service has read them all.
    /// </summary>
    private static FlushResult WaitForTheService(Task<FlushResult> flush, Func<bool> clientHungUp)
    {
        // WaitAny, not Wait: a flush cancelled by the connection's closing must come out as its OperationCanceledException.
        while (Task.WaitAny([flush], HangUpCheck) < 0)
        {
            if (clientHungUp())
            {
                throw new EndOfStreamException("The client hung up while its request stream waited for the service to read on.");
            }
        }

        return flush.GetAwaiter().GetResult();
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
