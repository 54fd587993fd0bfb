using System.Buffers;
using System.Net.Sockets;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// The sending half of a server connection: replies and errors come from the connection's thread
/// and from continuations of pending calls, so every frame is built and sent under one lock. Counts
/// the calls in flight (a call is in flight from dispatch to its last frame), so the connection is
/// idle only when none is. Sends never throw: a client that has gone is the reader's to notice.
/// </summary>
internal sealed partial class ConnectionSender : IFrameSender, IDisposable
{
    private readonly FastTransport _transport;
    private readonly ILogger _logger;
    private readonly long _connectionId;
    private readonly Lock _lock = new();
    private readonly FrameWriter _writer = new();
    private readonly LiveCalls _calls = new();
    private int _inFlight;
    // When a call last ended (Environment.TickCount64): the connection's idle time counts from its last answer, not its last request.
    private long _lastFinished = Environment.TickCount64;
    private bool _closed;
    // Set by whichever thread's send timed out, read by the connection's thread as it closes.
    private volatile bool _stalledReader;

    public ConnectionSender(FastTransport transport, ILogger logger, long connectionId)
    {
        _transport = transport;
        _logger = logger;
        _connectionId = connectionId;
    }

    /// <summary>Whether a send made no progress for the send timeout (the client stopped reading) and closed the connection.</summary>
    public bool StalledReader => _stalledReader;

    /// <summary>Calls dispatched and not yet answered.</summary>
    public int InFlight => Volatile.Read(ref _inFlight);

    /// <summary>When the last call ended (<see cref="Environment.TickCount64"/>); read after seeing <see cref="InFlight"/> at 0, it is that call's end.</summary>
    public long LastFinished => Volatile.Read(ref _lastFinished);

    /// <summary>The call's reply message; nothing for a one-way call (call id 0), which WCF answers with nothing at all.</summary>
    public void Reply<TReply>(uint callId, TReply reply)
    {
        try
        {
            lock (_lock)
            {
                if (!Finish(callId) || _closed)
                {
                    return;
                }

                _writer.Reset();
                try
                {
                    Body.WriteMessage(_writer, reply);
                }
                catch (Exception e)
                {
                    FastServerLog.OperationFailed(_logger, e, "reply serialization", _connectionId);
                    WriteError(callId, SafeBody(e, null));
                    return;
                }

                Send(_writer.Complete(FrameKind.Reply, 0, callId));
            }
        }
        finally
        {
            Ended();
        }
    }

    /// <summary>A reply that is a Stream: an empty Reply, the stream in chunks, then its end (or an Error if reading it fails); closes the stream.</summary>
    public void ReplyStream(uint callId, Stream reply, OperationDescription operation)
    {
        try
        {
            using (reply)
            {
                lock (_lock)
                {
                    if (!Finish(callId) || _closed)
                    {
                        return;
                    }

                    _writer.Reset();
                    Send(_writer.Complete(FrameKind.Reply, 0, callId));
                }

                try
                {
                    StreamChunks.Send(reply, callId, this);
                }
                catch (Exception e)
                {
                    // The client is reading the stream: the error ends it there.
                    LogUnexpected(e, operation);
                    SendErrorFrame(callId, e, operation);
                }
            }
        }
        finally
        {
            Ended();
        }
    }

    // The time is written before the count falls, so whoever sees the count at 0 sees the time of the call that took it there.
    private void Ended()
    {
        Volatile.Write(ref _lastFinished, Environment.TickCount64);
        Interlocked.Decrement(ref _inFlight);
    }

    /// <summary>Any frame outside a call's accounting (Bound, stream chunks).</summary>
    public bool SendFrame(FrameKind kind, uint callId, ReadOnlySpan<byte> body)
    {
        lock (_lock)
        {
            if (_closed)
            {
                return false;
            }

            _writer.Reset();
            _writer.Write(body);
            Send(_writer.Complete(kind, 0, callId));
            return !_closed;
        }
    }

    /// <summary>A frame built before (a notification encoded once for every subscriber); false once the connection is closed.</summary>
    public bool SendBuilt(ReadOnlySpan<byte> frame)
    {
        lock (_lock)
        {
            if (!_closed)
            {
                Send(frame);
            }

            return !_closed;
        }
    }

    /// <summary>
    /// A protocol body as a frame if the socket can take it now; otherwise closes the connection
    /// (a subscriber that stopped reading is told why when it can be, and never blocks a thread).
    /// </summary>
    public void SendProtocolOrClose<T>(FrameKind kind, T body)
    {
        lock (_lock)
        {
            if (_closed)
            {
                return;
            }

            bool writable;
            try
            {
                writable = _transport.Socket.Poll(0, SelectMode.SelectWrite);
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException)
            {
                writable = false;
            }

            if (writable)
            {
                _writer.Reset();
                Body.WriteProtocol(_writer, body);
                Send(_writer.Complete(kind, 0, 0));
                return;
            }
        }

        Dispose();
    }

    /// <summary>A protocol body (Bound) as a frame.</summary>
    public void SendProtocol<T>(FrameKind kind, uint callId, T body)
    {
        lock (_lock)
        {
            if (_closed)
            {
                return;
            }

            _writer.Reset();
            Body.WriteProtocol(_writer, body);
            Send(_writer.Complete(kind, 0, callId));
        }
    }

    /// <summary>No frame is sent after this. Shuts the socket down first, so a send blocked on a client that stopped reading gives up the lock.</summary>
    public void Dispose()
    {
        _transport.ShutDown();

        CancellationTokenSource[] tokens;
        lock (_lock)
        {
            _closed = true;
            _writer.Dispose();
            tokens = _calls.TakeAllTokens();
        }

        // The client is gone: services still working for it are told to stop.
        foreach (var token in tokens)
        {
            CancelQuietly(token);
        }
    }

    // Under _lock.
    private void Send(ReadOnlySpan<byte> frame)
    {
        try
        {
            _transport.Send(frame);
        }
        catch (SocketException e) when (e.SocketErrorCode is SocketError.TimedOut or SocketError.WouldBlock)
        {
            // The client read nothing for the send timeout: it is not going to. Shutting the socket down ends
            // the connection's receive too, so the connection closes instead of serving a client it cannot answer.
            _closed = true;
            _stalledReader = true;
            _transport.ShutDown();
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException or FastProtocolException)
        {
            _closed = true;
        }
    }
}
