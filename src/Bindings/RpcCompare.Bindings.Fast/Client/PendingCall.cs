using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>Reads an answer's body into its message (on the connection's reader, while the body is valid).</summary>
internal delegate T BodyReader<out T>(ReadOnlySpan<byte> body);

/// <summary>
/// A call on a <see cref="MultiplexedConnection"/> waiting for its answer. The connection's reader
/// hands it the frame with its id; its caller's continuation then runs on the thread pool, never
/// on the reader (a continuation that blocked would stop every other call's replies).
/// </summary>
internal abstract class PendingCall
{
    private int _completed;
    private CancellationTokenRegistration _registration;
    private CancellationTokenSource? _timer;

    protected PendingCall(OperationDescription? operation)
    {
        Operation = operation;
    }

    /// <summary>The call's id on its connection; set when its request is written.</summary>
    public uint CallId { get; set; }

    /// <summary>The operation's id on the connection and when its request was written (Stopwatch ticks), for <see cref="ReplyTimes"/>.</summary>
    public ushort OperationId { get; set; }

    public long SentAt { get; set; }

    public OperationDescription? Operation { get; }

    /// <summary>The request is out (under the connection's send lock): a Cancel may follow it.</summary>
    public bool RequestSent { get; set; }

    /// <summary>Set when the caller gave up (under the send lock): the server's Cancel answer ends the call with it.</summary>
    public Exception? CancelledWith { get; set; }

    public bool IsCompleted => Volatile.Read(ref _completed) != 0;

    /// <summary>Sends Cancel (through <paramref name="cancel"/>) when <paramref name="callers"/> fires or <paramref name="timeout"/> passes.</summary>
    public void Watch(TimeSpan timeout, Action<PendingCall, CancellationToken> cancel, CancellationToken callers)
    {
        var token = callers;
        if (timeout != Timeout.InfiniteTimeSpan)
        {
            // Linked only to a token that can fire: a source of its own is cheaper.
            _timer = callers.CanBeCanceled ? CancellationTokenSource.CreateLinkedTokenSource(callers) : new CancellationTokenSource();
            _timer.CancelAfter(timeout);
            token = _timer.Token;
        }

        // The callback is given the caller's own token, to tell its cancellation from the timeout's.
        _registration = token.Register(static (state, _) =>
        {
            var (call, cancel, callers) = ((PendingCall, Action<PendingCall, CancellationToken>, CancellationToken))state!;
            cancel(call, callers);
        }, (this, cancel, callers));
    }

    /// <summary>
    /// The answer: <paramref name="kind"/> and its body. False when the frame was not one this call
    /// can have (the call is failed, and the connection is out of step with the server).
    /// </summary>
    public bool Answer(FrameKind kind, ReadOnlySpan<byte> body)
    {
        switch (kind)
        {
            case FrameKind.Error:
                ErrorBody error;
                try
                {
                    error = Body.ReadProtocol<ErrorBody>(body);
                }
                catch (ProtoBuf.ProtoException e)
                {
                    Fail(new IOException($"The server sent an error that is not an error message: {e.Message}", e));
                    return false;
                }

                Fail(FastErrors.ToException(error, Operation));
                return true;
            case FrameKind.Cancel when CancelledWith is { } cancelled:
                // The server took the call out: nothing more comes for it.
                Fail(cancelled);
                return true;
            default:
                if (!TryComplete(kind, body))
                {
                    Fail(new IOException($"The server answered call {CallId} with a {kind} frame."));
                    return false;
                }

                return true;
        }
    }

    public void Fail(Exception exception)
    {
        if (Finish())
        {
            SetException(exception);
        }
    }

    /// <summary>Completes the call from a frame of its expected kind; false for any other kind.</summary>
    protected abstract bool TryComplete(FrameKind kind, ReadOnlySpan<byte> body);

    protected abstract void SetException(Exception exception);

    /// <summary>Marks the call done once and lets go of its cancellation; false if it was done already.</summary>
    protected bool Finish()
    {
        if (Interlocked.Exchange(ref _completed, 1) != 0)
        {
            return false;
        }

        // Unregister, not Dispose: Dispose waits for a callback running elsewhere, and this is the reader's thread.
        _registration.Unregister();
        _timer?.Dispose();
        FastConnectionPool.CallsInFlight.Leave();
        return true;
    }
}

/// <summary>
/// A pending call whose answer is a <typeparamref name="TReply"/> in a frame of one kind (Reply, or
/// Bound for a bind), turned into the caller's <typeparamref name="TResult"/> as it is read: the
/// task the caller awaits is this call's own, with no second task or state machine per call.
/// </summary>
/// <param name="operation">The operation called (null for a bind): its faults and name in errors.</param>
/// <param name="expected">The kind of frame that answers it.</param>
/// <param name="read">Reads the answer's body (on the reader, while the body is valid).</param>
/// <param name="map">The reply to the method's result (the contract's return value); null when the reply is the result.</param>
/// <param name="args">The call's arguments, which <paramref name="map"/> is given.</param>
internal sealed class PendingReply<TReply, TResult>(OperationDescription? operation, FrameKind expected, BodyReader<TReply> read,
    Func<TReply, object?[], TResult>? map = null, object?[]? args = null) : PendingCall(operation)
{
    private readonly TaskCompletionSource<TResult> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public Task<TResult> Task => _completion.Task;

    protected override bool TryComplete(FrameKind kind, ReadOnlySpan<byte> body)
    {
        if (kind != expected)
        {
            return false;
        }

        TResult result;
        try
        {
            var reply = read(body);
            result = map is null ? (TResult)(object)reply! : map(reply, args!);
        }
        catch (Exception e)
        {
            // Read whole, so the connection is fine: the call fails with what is wrong with its reply.
            Fail(e);
            return true;
        }

        if (Finish())
        {
            _completion.SetResult(result);
        }

        return true;
    }

    protected override void SetException(Exception exception) => _completion.SetException(exception);
}
