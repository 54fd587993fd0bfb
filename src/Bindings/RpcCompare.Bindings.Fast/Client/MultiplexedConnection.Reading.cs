using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Fast.Transport;

namespace RpcCompare.Bindings.Fast.Client;

// Reading answers: whoever holds _readLock reads frames and completes the calls they answer. That is
// the connection's reader thread, woken by poll() when bytes arrive while a call is left to it
// (ReaderGate), or a caller spinning for its
// own reply as the process's only call in flight (a leader/follower split: the reply usually arrives
// within the spin, and the caller then returns a completed task instead of a pool hop per reply). The
// spin is as long as the operation's replies have lately taken, within limits (ReplyTimes).
internal sealed partial class MultiplexedConnection
{
    private readonly Lock _readLock = new();
    private readonly FrameReader _reader;
    private readonly long _spinTicks;
    private readonly ReplyTimes _replyTimes = new();
    private readonly ReaderGate _readerGate = new();
    private SpinBackoff _callerBackoff;

    /// <summary>
    /// On the caller's thread, right after its request went out: reads frames until its call is
    /// answered or the spin budget is spent, if it is the process's only call in flight and no
    /// one else is reading. Returns with the call answered or still waiting (the reader thread
    /// then answers it); never blocks beyond the budget but to finish a frame already arriving.
    /// </summary>
    private void ReadWhileWaiting(PendingCall call)
    {
        if (_spinTicks == 0 || call.IsCompleted)
        {
            return;
        }

        if (FastConnectionPool.CallsInFlight.Count > 1)
        {
            // Other calls need the cores to send and read theirs.
            SpinBeforeBlocking.Decline();
            return;
        }

        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        if (!EnterReadLock(call, started))
        {
            return;
        }

        try
        {
            // Answered by the reader while this caller waited for the lock: no spin of its own to count.
            if (call.IsCompleted || !_callerBackoff.ShouldSpin())
            {
                return;
            }

            var deadline = started + _replyTimes.BudgetFor(call.OperationId, _spinTicks);
            while (!call.IsCompleted && !HasEnded)
            {
                var left = deadline - System.Diagnostics.Stopwatch.GetTimestamp();
                var arrived = _reader.HasBuffered || _transport.Socket.Available > 0 || SpinBeforeBlocking.TryWaitForData(_transport.Socket, left);
                if (!arrived)
                {
                    _callerBackoff.Record(false);
                    return;
                }

                ReadFrame();
            }

            // Other calls' replies that came in the same receive: the socket no longer shows them, so a reader
            // in poll() would not wake for them.
            while (_reader.HasBuffered && HasPending && !HasEnded)
            {
                ReadFrame();
            }

            _callerBackoff.Record(true);
            _readerGate.CallerRead();
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            Break(new IOException($"The {_binding} connection failed: {e.Message}", e));
        }
        finally
        {
            _readLock.Exit();
        }
    }

    /// <summary>
    /// Takes the read lock for a caller about to spin, waiting up to the spin setting while the reader
    /// thread holds it: woken by the previous reply's bytes, it takes the lock just after the caller
    /// that read them, finds nothing, and lets go; a caller that gave up at once would leave its reply to
    /// the reader and a pool thread (two wake-ups; four calls in ten at 248,832 B here). False when the
    /// call was answered meanwhile (by the reader) or the wait ran out.
    /// </summary>
    private bool EnterReadLock(PendingCall call, long started)
    {
        while (!_readLock.TryEnter())
        {
            if (call.IsCompleted || System.Diagnostics.Stopwatch.GetTimestamp() - started > _spinTicks)
            {
                return false;
            }

            Thread.SpinWait(10);
        }

        return true;
    }

    private bool HasPending
    {
        get
        {
            lock (_pendingLock)
            {
                return _pending.Count > 0;
            }
        }
    }

    /// <summary>
    /// The reader thread: while some call is left to it (<see cref="ReaderGate"/>), waits for bytes without
    /// holding the read lock (a spinning caller may take them), then reads what has arrived.
    /// </summary>
    private void Read()
    {
        try
        {
            if (!_transport.SocketShowsEverything)
            {
                ReadEverything();
                return;
            }

            // Not IsBroken: after a send failed, the server's last word (the Error refusing an over-limit
            // request) may still be unread, and this thread is the one to read it; only the end stops it.
            while (!HasEnded && _readerGate.WaitUntilWanted())
            {
                _transport.Socket.Poll(-1, SelectMode.SelectRead);
                lock (_readLock)
                {
                    // Readable with nothing to read, and nothing read by a caller meanwhile: the end of the stream (or an error), which the read reports.
                    var ended = !_reader.HasBuffered && _transport.Socket.Available == 0 && _transport.Socket.Poll(0, SelectMode.SelectRead);
                    while (!HasEnded && (ended || _reader.HasBuffered || _transport.Socket.Available > 0))
                    {
                        ReadFrame();
                        ended = false;
                    }
                }

                if (!HasPending && _readerGate.StandDownIfCallersRead() && HasPending)
                {
                    // Stood down as a call came (looking again after standing down, as it may have come meanwhile): it is ours.
                    _readerGate.Want();
                }
            }
        }
        catch (Exception e)
        {
            // The socket failed or was disposed; on a thread of its own, nothing may escape.
            Break(new IOException($"The {_binding} connection failed: {e.Message}", e));
        }
        finally
        {
            lock (_readLock)
            {
                _reader.Dispose();
            }
        }
    }

    /// <summary>
    /// The reader thread of a transport whose socket does not show every byte to read (TLS, which reads
    /// records ahead): a reader asleep in poll() could miss a reply already read ahead, so this one blocks
    /// in the receive and reads every frame; callers never read (they do not spin: <c>_spinTicks</c> is 0).
    /// </summary>
    private void ReadEverything()
    {
        while (!HasEnded)
        {
            lock (_readLock)
            {
                ReadFrame();
            }
        }
    }

    /// <summary>Under _readLock: one frame, handed to the call it answers; anything wrong breaks the connection.</summary>
    private void ReadFrame()
    {
        try
        {
            if (!_reader.TryRead(out var header, out var body))
            {
                Break(new IOException($"The {_binding} server closed the connection before it answered."));
                return;
            }

            if (header.Kind == FrameKind.Error && header.CallId == 0)
            {
                // The server refused the connection, or a request on it, and closes it: every call gets its reason.
                Break(ConnectionError(body));
                return;
            }

            if (Take(header.CallId) is not { } call)
            {
                throw new FastProtocolException($"a {header.Kind} frame for call {header.CallId}, which is not waiting for one");
            }

            if (header.Kind != FrameKind.Bound)
            {
                _replyTimes.Record(call.OperationId, System.Diagnostics.Stopwatch.GetTimestamp() - call.SentAt);
            }

            if (!call.Answer(header.Kind, body))
            {
                Break(new IOException($"The {_binding} server answered call {header.CallId} with a {header.Kind} frame; the connection is closed."));
            }
        }
        catch (FrameTooLargeException e)
        {
            Take(e.Header.CallId)?.Fail(FastClientErrors.ReplyTooLarge(e.BodyLength, _options.MaxMessageSize));
            Break(new IOException($"The connection was closed after a reply over the client's limit of {_options.MaxMessageSize:#,0} bytes to another call."));
        }
        catch (FastProtocolException e)
        {
            Break(new IOException($"The {_binding} server sent bytes that are not the protocol: {e.Message}", e));
        }
        catch (Exception e) when (e is EndOfStreamException or FrameStalledException)
        {
            Break(new IOException($"The {_binding} connection failed: {e.Message}", e));
        }
    }

    private Exception ConnectionError(ReadOnlySpan<byte> body)
    {
        try
        {
            return FastErrors.ToException(Body.ReadProtocol<ErrorBody>(body), null);
        }
        catch (ProtoBuf.ProtoException e)
        {
            return new IOException($"The {_binding} server sent an error that is not an error message: {e.Message}", e);
        }
    }

    private PendingCall? Take(uint callId)
    {
        lock (_pendingLock)
        {
            return _pending.Remove(callId, out var call) ? call : null;
        }
    }

    /// <summary>Ends the connection once: every call still waiting fails with <paramref name="reason"/>.</summary>
    private void Break(Exception reason)
    {
        PendingCall[] waiting;
        lock (_pendingLock)
        {
            if (_broken is not null)
            {
                return;
            }

            _broken = reason;
            waiting = [.. _pending.Values];
            _pending.Clear();
        }

        _readerGate.Close();

        foreach (var call in waiting)
        {
            call.Fail(reason);
        }

        // The reader thread wakes from its poll on the hang-up.
        _transport.ShutDown();
        _transport.Dispose();
    }
}
