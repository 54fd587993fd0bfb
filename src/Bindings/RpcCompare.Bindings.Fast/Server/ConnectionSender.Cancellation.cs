using RpcCompare.Bindings.Fast.Protocol;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// The calls' side of the sender: which calls are still to be answered (<see cref="LiveCalls"/>),
/// the client's Cancel frames, and the tokens of services that take one. Everything under the sender's lock.
/// </summary>
internal sealed partial class ConnectionSender
{
    /// <summary>A call was dispatched: it ends with exactly one of <see cref="Reply{TReply}"/>, <see cref="ReplyStream"/> or <see cref="Error"/>.</summary>
    public void Started(uint callId)
    {
        Interlocked.Increment(ref _inFlight);
        lock (_lock)
        {
            _calls.Start(callId);
        }
    }

    /// <summary>For a service that takes a CancellationToken: cancelled by the client's Cancel frame, or when the connection closes.</summary>
    public CancellationToken TokenFor(uint callId)
    {
        lock (_lock)
        {
            return _calls.TokenFor(callId);
        }
    }

    /// <summary>
    /// The client cancelled call <paramref name="callId"/>: if it is still to be answered, the client
    /// is told at once (a Cancel frame with its id), its answer is dropped when it comes, and its
    /// service's token, if it takes one, is cancelled. A call already answered is left alone.
    /// </summary>
    public void Cancel(uint callId)
    {
        CancellationTokenSource? token;
        lock (_lock)
        {
            if (_closed || !_calls.Cancel(callId, out token))
            {
                return;
            }

            _writer.Reset();
            Send(_writer.Complete(FrameKind.Cancel, 0, callId));
        }

        CancelQuietly(token);
    }

    // Under _lock: whether the call is still to be answered; its token's source is done with either way.
    private bool Finish(uint callId)
    {
        var answer = _calls.Finish(callId, out var token);
        token?.Dispose();
        return answer;
    }

    private void CancelQuietly(CancellationTokenSource? token)
    {
        try
        {
            token?.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The call finished meanwhile.
        }
        catch (AggregateException e)
        {
            // A callback the service registered threw: its call ends however it ends; the connection goes on.
            FastServerLog.OperationFailed(_logger, e, "cancellation callback", _connectionId);
        }
    }
}
