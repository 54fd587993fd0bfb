using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Protocol;

namespace RpcCompare.Bindings.Fast.Client;

// Sending: every frame is written and sent under _sendLock, on the caller's thread (a request, a one-way
// call, a Cancel); a send that fails ends the connection, unless the server said something first that
// the reader must still read (EndAfterGrace).
internal sealed partial class MultiplexedConnection
{
    /// <summary>Writes a request and sends it as <paramref name="call"/>'s, waiting for its answer; a failure fails the call.</summary>
    private void Send<TBody>(PendingCall call, FrameKind kind, ushort id, Action<FrameWriter, TBody> write, TBody body)
    {
        FastConnectionPool.CallsInFlight.Enter();
        lock (_sendLock)
        {
            try
            {
                if (kind == FrameKind.Request)
                {
                    _writer.ResetRequest();
                }
                else
                {
                    _writer.Reset();
                }

                write(_writer, body);
                ThrowIfTooLarge();
            }
            catch (Exception e)
            {
                // Nothing was sent: the connection is fine, the call is not.
                call.Fail(e);
                return;
            }

            call.CallId = NextCallId();
            call.OperationId = id;
            // Before the call can be answered: the reader takes it under the same lock.
            call.SentAt = System.Diagnostics.Stopwatch.GetTimestamp();
            lock (_pendingLock)
            {
                if (_broken is { } broken || _sendFailed)
                {
                    call.Fail(Gone(_broken ?? new IOException($"The {_binding} connection failed while sending an earlier request.")));
                    return;
                }

                _pending.Add(call.CallId, call);
            }

            if (SendLocked(_writer.Complete(kind, id, call.CallId)))
            {
                call.RequestSent = true;
                if (call.CancelledWith is not null)
                {
                    SendCancel(call.CallId);
                }
            }
        }
    }

    private void SendOneWay<TRequest>(ushort id, TRequest request)
    {
        lock (_sendLock)
        {
            _writer.ResetRequest();
            Body.WriteMessage(_writer, request);
            ThrowIfTooLarge();
            if (_broken is { } broken || _sendFailed)
            {
                throw Gone(_broken ?? new IOException($"The {_binding} connection failed while sending an earlier request."));
            }

            if (!SendLocked(_writer.Complete(FrameKind.Request, id, 0)))
            {
                throw new IOException($"The {_binding} connection failed; the one-way call was not sent.", _broken);
            }
        }

        // No answer comes, but a refusal of it would (an Error for the connection): the reader watches for it.
        _readerGate.Want();
    }

    /// <summary>Runs where the caller's token fired or its timeout passed: Cancel goes out once the request has.</summary>
    private void RequestCancel(PendingCall call, CancellationToken callersToken)
    {
        lock (_sendLock)
        {
            if (call.IsCompleted || call.CancelledWith is not null)
            {
                return;
            }

            call.CancelledWith = callersToken.IsCancellationRequested
                ? new OperationCanceledException(callersToken)
                : FastClientErrors.CallTimedOut(call.Operation?.Name, _options.CallTimeout);
            if (call.RequestSent)
            {
                SendCancel(call.CallId);
            }
        }
    }

    // Under _sendLock.
    private void SendCancel(uint callId) => SendLocked(FrameHeader.WriteCancel(stackalloc byte[FrameHeader.Size], callId));

    /// <summary>Under _sendLock: the whole frame out; false when the connection failed (every waiting call is failed with why).</summary>
    private bool SendLocked(ReadOnlySpan<byte> frame)
    {
        try
        {
            _transport.Send(frame);
            _lastSent = Environment.TickCount64;
            return true;
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or FastProtocolException)
        {
            // Nothing more can be sent: a frame may be cut short.
            _sendFailed = true;
            if (e is SocketException && (Readable() || !_transport.SocketShowsEverything))
            {
                // The server said something before it stopped reading (the Error refusing an over-limit request, for the
                // connection; under TLS the reader may have read it ahead already, so the socket cannot tell): the reader fails the calls with that. Our end of the stream tells it we are done, and a
                // server that never closes its end cannot keep the reader and the waiting calls past the grace period.
                ShutdownSend();
                _readerGate.Want();
                EndAfterGrace();
            }
            else
            {
                Break(new IOException($"The {_binding} connection failed: {e.Message}", e));
            }

            return false;
        }
    }

    private void EndAfterGrace() =>
        _ = Task.Delay(SendFailedGrace).ContinueWith(
            static (_, state) =>
            {
                var connection = (MultiplexedConnection)state!;
                connection.Break(new IOException($"The {connection._binding} connection failed while sending, and the server did not close it within {SendFailedGrace.TotalSeconds:0} s."));
            },
            this,
            CancellationToken.None,
            TaskContinuationOptions.ExecuteSynchronously,
            TaskScheduler.Default);

    private bool Readable()
    {
        try
        {
            return _transport.Socket.Poll(0, SelectMode.SelectRead);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            return false;
        }
    }

    private void ShutdownSend()
    {
        try
        {
            _transport.Socket.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Gone already: the reader finds the end.
        }
    }

    // The server's own word on the connection (a refusal of it, read before this call was written) stands for every call on it.
    private Exception Gone(Exception reason) =>
        reason is IOException or Contracts.RpcServiceException ? reason : new IOException($"The {_binding} connection is closed: {reason.Message}", reason);

    private void ThrowIfTooLarge()
    {
        if (_writer.MessageLength > _options.MaxMessageSize)
        {
            throw FastClientErrors.RequestTooLarge(_writer.MessageLength, _options.MaxMessageSize);
        }
    }

    // Under _sendLock. Never 0, which means the connection itself.
    private uint NextCallId() => ++_lastCallId == 0 ? ++_lastCallId : _lastCallId;
}
