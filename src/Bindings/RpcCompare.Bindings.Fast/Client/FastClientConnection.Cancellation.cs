using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// Cancellation and the call timeout: while the caller's thread waits for the reply, a cancelled
/// token sends a Cancel frame from whichever thread cancelled it. The server answers Cancel at
/// once if the call was still running (and cancels the service's token), or the reply crossed the
/// Cancel and is returned as usual. Either way the connection stays in step and is reused.
/// </summary>
internal sealed partial class FastClientConnection
{
    private readonly Lock _sendLock = new();
    private CancelState _cancel;

    private ReadOnlySpan<byte> CancellableExchange(ReadOnlySpan<byte> frame, uint callId, OperationDescription operation, CancellationToken cancellationToken)
    {
        var timeout = _options.CallTimeout;
        using var timer = timeout == Timeout.InfiniteTimeSpan ? null : new CancellationTokenSource(timeout);
        using var linked = timer is not null && cancellationToken.CanBeCanceled ? CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, timer.Token) : null;
        var token = linked?.Token ?? timer?.Token ?? cancellationToken;
        _cancel = new CancelState(callId);
        try
        {
            // Disposed before the connection goes back to the pool: a late callback never touches the next call.
            using (token.Register(static state => ((FastClientConnection)state!).RequestCancel(), this))
            {
                lock (_sendLock)
                {
                    if (!Send(frame))
                    {
                        return Answer(callId, FrameKind.Reply, operation);
                    }

                    _cancel.RequestSent = true;
                    if (_cancel.Requested)
                    {
                        SendCancel(callId);
                    }
                }

                return Answer(callId, FrameKind.Reply, operation);
            }
        }
        catch (CallCancelledException)
        {
            cancellationToken.ThrowIfCancellationRequested();
            throw FastClientErrors.CallTimedOut(operation.Name, timeout);
        }
        finally
        {
            _cancel = default;
        }
    }

    private void RequestCancel()
    {
        lock (_sendLock)
        {
            if (_cancel.CallId == 0 || _cancel.Requested)
            {
                return;
            }

            _cancel.Requested = true;
            if (_cancel.RequestSent)
            {
                SendCancel(_cancel.CallId);
            }
        }
    }

    // Under _sendLock. A failed send breaks the connection; the caller's receive then fails.
    private void SendCancel(uint callId) => Send(FrameHeader.WriteCancel(stackalloc byte[FrameHeader.Size], callId));

    /// <summary>The cancellation of the call in progress: its id (0: none), whether it was asked for, whether its request is out.</summary>
    private struct CancelState(uint callId)
    {
        public uint CallId = callId;
        public bool Requested;
        public bool RequestSent;
    }

    /// <summary>The server answered the call with Cancel: it was cancelled there.</summary>
    private sealed class CallCancelledException : Exception;
}
