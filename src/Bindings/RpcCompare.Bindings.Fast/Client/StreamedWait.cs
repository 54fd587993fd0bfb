namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// Bounds one wait of a streamed call by the call timeout and the caller's token: the call itself
/// (its request, a request stream included, up to its reply), or one chunk of its reply stream.
/// A streamed call cannot be cancelled in step as other calls are (a Cancel frame would sit behind
/// request chunks still to send, and a reply stream's chunks are already on their way), so either
/// ends the wait by closing the connection: the blocked send or receive returns, and the server, its
/// connection gone, cancels the service's token and fails the request stream it was reading.
/// </summary>
internal sealed class StreamedWait : IDisposable
{
    private readonly FastClientConnection _connection;
    private readonly CancellationTokenSource? _timer;
    private readonly CancellationToken _cancellation;
    private CancellationTokenRegistration _cancelled;
    private CancellationTokenRegistration _timedOut;
    private int _ended;

    private StreamedWait(FastClientConnection connection, TimeSpan timeout, CancellationToken cancellation)
    {
        _connection = connection;
        _cancellation = cancellation;
        Timeout = timeout;
        if (timeout != System.Threading.Timeout.InfiniteTimeSpan)
        {
            _timer = new CancellationTokenSource(timeout);
            _timedOut = _timer.Token.UnsafeRegister(static state => ((StreamedWait)state!).End(Ending.TimedOut), this);
        }

        // Registered last: a token already cancelled ends the wait here, before anything is sent.
        _cancelled = cancellation.UnsafeRegister(static state => ((StreamedWait)state!).End(Ending.Cancelled), this);
    }

    private enum Ending
    {
        None,
        Cancelled,
        TimedOut,
    }

    public TimeSpan Timeout { get; }

    /// <summary>Whether the wait was ended (the connection closed) by the token or the timeout.</summary>
    public bool Ended => Volatile.Read(ref _ended) != (int)Ending.None;

    /// <summary>A wait bounded by <paramref name="timeout"/> and <paramref name="cancellation"/>; null when neither can end it (nothing to register).</summary>
    public static StreamedWait? Start(FastClientConnection connection, TimeSpan timeout, CancellationToken cancellation) =>
        timeout == System.Threading.Timeout.InfiniteTimeSpan && !cancellation.CanBeCanceled ? null : new(connection, timeout, cancellation);

    /// <summary>
    /// What the caller gets for a wait that was ended: the caller's <see cref="OperationCanceledException"/>
    /// (with its token), or a <see cref="TimeoutException"/> saying <paramref name="timedOut"/>.
    /// </summary>
    public Exception Failure(Exception? failure, string timedOut) =>
        Volatile.Read(ref _ended) == (int)Ending.Cancelled
            ? new OperationCanceledException("The streamed call was cancelled; its connection was closed.", failure, _cancellation)
            : new TimeoutException(timedOut, failure);

    public void Dispose()
    {
        // Disposing a registration waits for a callback already running: once this returns, the connection is left alone.
        _cancelled.Dispose();
        _timedOut.Dispose();
        _timer?.Dispose();
    }

    private void End(Ending ending)
    {
        if (Interlocked.CompareExchange(ref _ended, (int)ending, (int)Ending.None) == (int)Ending.None)
        {
            _connection.Abort();
        }
    }
}
