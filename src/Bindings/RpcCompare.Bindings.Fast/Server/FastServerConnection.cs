using System.Buffers;
using System.Collections.Concurrent;
using System.Net.Sockets;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// One client connection, read on a thread of its own with blocking receives (no thread-pool hop
/// per message: docs/measurements/fast-stage0-waiting-modes-20261126.md). Requests are dispatched
/// on that thread; a call that completes at once is answered at once, a pending one from its
/// continuation, so replies go out in the order calls finish. Sends are serialised by a lock.
/// </summary>
internal sealed class FastServerConnection : IFrameSender, IDisposable
{
    private readonly Socket _socket;
    private readonly FastDispatcher _dispatcher;
    private readonly FastUdsBindingOptions _options;
    private readonly ConnectionIncidents _incidents;
    private readonly CallerIdentity _caller;
    private readonly ILogger _logger;
    private readonly RpcServiceException? _refusal;
    private readonly Lock _sendLock = new();
    private readonly FrameWriter _writer = new();
    private readonly ConcurrentDictionary<uint, InboundStream> _inbound = new();
    private bool _closed;

    // refusal: when set, the connection is told this (an Error frame for the connection, id 0) and closed.
    public FastServerConnection(Socket socket, FastDispatcher dispatcher, FastUdsBindingOptions options, ConnectionIncidents incidents,
        CallerIdentity caller, ILogger logger, long id, RpcServiceException? refusal)
    {
        _socket = socket;
        _dispatcher = dispatcher;
        _options = options;
        _incidents = incidents;
        _caller = caller;
        _logger = logger;
        Id = id;
        _refusal = refusal;
    }

    public long Id { get; }

    /// <summary>The connection's loop; returns when it is closed, by either side.</summary>
    public void Run()
    {
        // Set once: every call dispatched on this thread (and its continuations) sees who connected.
        CallerIdentity.Current = _caller;
        using var reader = new FrameReader(_socket, _options.MaxMessageSize) { FrameTimeout = _options.FrameTimeout };
        var reason = "closed by the client";
        try
        {
            if (_refusal is not null)
            {
                lock (_sendLock)
                {
                    // Call id 0: the connection itself.
                    WriteError(0, FastErrors.ToBody(_refusal, null));
                }

                Linger();
                reason = "refused: " + _refusal.Message;
                return;
            }

            // A receive wakes at least this often, so a stalled frame is noticed and idle time counted.
            _socket.ReceiveTimeout = (int)Math.Min(_options.FrameTimeout.TotalMilliseconds, int.MaxValue);
            var lastFrame = Environment.TickCount64;
            while (true)
            {
                FrameHeader header;
                ReadOnlySpan<byte> body;
                try
                {
                    if (!reader.TryRead(out header, out body))
                    {
                        return;
                    }
                }
                catch (SocketException e) when (IsTimeout(e) && reader.IsBetweenFrames)
                {
                    if (_options.IdleTimeout == Timeout.InfiniteTimeSpan || Environment.TickCount64 - lastFrame < _options.IdleTimeout.TotalMilliseconds)
                    {
                        continue;
                    }

                    _incidents.Add(ConnectionIncident.Idle, "closed after the idle timeout");
                    reason = "idle";
                    return;
                }

                lastFrame = Environment.TickCount64;
                switch (header.Kind)
                {
                    case FrameKind.Request when _dispatcher.Operation(header.Operation) is { } operation:
                        operation.Dispatch(this, header.CallId, body);
                        break;
                    case FrameKind.Request:
                        SendError(header.CallId, new RpcServiceException(RpcErrorCode.NotFound, $"Operation id {header.Operation} is not one this server gave out; bind the contract first."), null);
                        break;
                    case FrameKind.Bind:
                        Bind(header.CallId, body);
                        break;
                    case FrameKind.StreamData:
                        // A chunk for a call that already ended (it failed before reading everything) is dropped.
                        if (_inbound.TryGetValue(header.CallId, out var inbound))
                        {
                            inbound.Write(body);
                        }

                        break;
                    case FrameKind.StreamEnd:
                        if (_inbound.TryRemove(header.CallId, out var ended))
                        {
                            ended.Complete();
                        }

                        break;
                    default:
                        throw new FastProtocolException($"a client sent a {header.Kind} frame");
                }
            }
        }
        catch (FrameTooLargeException e)
        {
            SendError(e.Header.CallId, new RpcServiceException(RpcErrorCode.QuotaExceeded,
                $"The request is {e.BodyLength:#,0} bytes, over the server's limit of {_options.MaxMessageSize:#,0} bytes ({FastUdsBindingOptions.SectionName}:MaxMessageSize); the connection is closed."), null);
            _incidents.Add(ConnectionIncident.Malformed, "an over-limit message (answered QuotaExceeded, closed)");
            reason = e.Message;
        }
        catch (FastProtocolException e)
        {
            _incidents.Add(ConnectionIncident.Malformed, "bytes that are not the fast protocol");
            reason = e.Message;
        }
        catch (Exception e) when (e is FrameStalledException || (e is SocketException s && IsTimeout(s)))
        {
            _incidents.Add(ConnectionIncident.Stalled, "a frame left unfinished past the frame timeout");
            reason = "stalled inside a frame";
        }
        catch (Exception e) when (e is SocketException or EndOfStreamException or ObjectDisposedException)
        {
            _incidents.Add(ConnectionIncident.Dropped, "went away inside a frame");
            reason = e.Message;
        }
        finally
        {
            Dispose();
            FastServerLog.ConnectionClosed(_logger, Id, reason);
        }
    }

    /// <summary>Closes the socket; a call still running finds the connection closed and sends nothing, and a request stream still being read fails.</summary>
    public void Dispose()
    {
        foreach (var inbound in _inbound.Values)
        {
            inbound.Complete(new IOException("The client's connection closed before its stream ended."));
        }

        _inbound.Clear();
        lock (_sendLock)
        {
            _closed = true;
            _writer.Dispose();
        }

        _socket.Dispose();
    }

    /// <summary>Closes the connection from the server's side (the host is stopping).</summary>
    public void Abort()
    {
        try
        {
            _socket.Shutdown(SocketShutdown.Both);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Already gone.
        }
    }

    public void SendReply<TReply>(uint callId, TReply reply)
    {
        lock (_sendLock)
        {
            // Call id 0: a one-way call, which WCF answers with nothing at all.
            if (_closed || callId == 0)
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
                FastServerLog.OperationFailed(_logger, e, "reply serialization", Id);
                WriteError(callId, FastErrors.ToBody(e, null));
                return;
            }

            Send(_writer.Complete(FrameKind.Reply, 0, callId));
        }
    }

    /// <summary>Starts receiving the request stream of call <paramref name="callId"/>: its StreamData frames go to the stream returned.</summary>
    public InboundStream OpenInbound(uint callId)
    {
        var inbound = new InboundStream();
        return _inbound.TryAdd(callId, inbound) ? inbound : throw new FastProtocolException($"call id {callId} sent a second stream while its first was open");
    }

    /// <summary>The call that read <paramref name="inbound"/> is over: what it left unread, and what still comes, is dropped.</summary>
    public void CloseInbound(uint callId, InboundStream inbound)
    {
        _inbound.TryRemove(new KeyValuePair<uint, InboundStream>(callId, inbound));
        inbound.Abandon();
    }

    /// <summary>Sends a reply that is a Stream: an empty Reply, the stream in chunks, then its end (or an Error if reading it fails); closes the stream.</summary>
    public void SendReplyStream(uint callId, Stream reply, OperationDescription operation)
    {
        using (reply)
        {
            if (!SendFrame(FrameKind.Reply, callId, []))
            {
                return;
            }

            try
            {
                StreamChunks.Send(reply, callId, this);
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                // The client is reading the stream: the error ends it there.
                SendError(callId, e, operation);
            }
        }
    }

    public bool SendFrame(FrameKind kind, uint callId, ReadOnlySpan<byte> body)
    {
        lock (_sendLock)
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

    /// <summary>Sends the error a call ended with; a one-way call's (call id 0) is only logged, as WCF does.</summary>
    public void SendError(uint callId, Exception exception, OperationDescription? operation)
    {
        if (exception is not RpcServiceException and not System.ServiceModel.FaultException)
        {
            FastServerLog.OperationFailed(_logger, exception, operation?.Name ?? "?", Id);
        }

        lock (_sendLock)
        {
            if (!_closed && callId != 0)
            {
                WriteError(callId, FastErrors.ToBody(exception, operation));
            }
        }
    }

    // Under _sendLock.
    private void WriteError(uint callId, ErrorBody error)
    {
        _writer.Reset();
        Body.WriteProtocol(_writer, error);
        Send(_writer.Complete(FrameKind.Error, 0, callId));
    }

    private void Bind(uint callId, ReadOnlySpan<byte> body)
    {
        BindBody bind;
        try
        {
            bind = Body.ReadProtocol<BindBody>(body);
        }
        catch (Exception e)
        {
            throw new FastProtocolException($"a Bind frame that is not a bind message: {e.Message}");
        }

        var bound = new BoundBody();
        foreach (var name in bind.Operations)
        {
            var id = _dispatcher.IdOf(bind.Service, name);
            bound.Ids.Add(id);
            if (id == 0)
            {
                bound.Refusals.Add(_dispatcher.Serves(bind.Service)
                    ? $"this host serves {bind.Service} without an operation {name} (a different build of the contract?)"
                    : $"this host does not serve {bind.Service} on fast-uds");
            }
        }

        lock (_sendLock)
        {
            if (_closed)
            {
                return;
            }

            _writer.Reset();
            Body.WriteProtocol(_writer, bound);
            Send(_writer.Complete(FrameKind.Bound, 0, callId));
        }
    }

    // Under _sendLock. A client that has gone leaves the reader to notice; a send never throws out of a call's completion.
    private void Send(ReadOnlySpan<byte> frame)
    {
        try
        {
            while (!frame.IsEmpty)
            {
                frame = frame[_socket.Send(frame)..];
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            _closed = true;
        }
    }

    /// <summary>
    /// After a refusal: stops sending and discards what the client sends for up to two seconds, until
    /// it closes. Closing with its first request unread would reset the connection, and the client
    /// could lose the refusal it has not read yet.
    /// </summary>
    private void Linger()
    {
        try
        {
            _socket.Shutdown(SocketShutdown.Send);
            _socket.ReceiveTimeout = 500;
            Span<byte> discard = stackalloc byte[512];
            var until = Environment.TickCount64 + 2000;
            while (Environment.TickCount64 < until && _socket.Receive(discard) > 0)
            {
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Gone or silent: either way, done.
        }
    }

    private static bool IsTimeout(SocketException e) => e.SocketErrorCode is SocketError.TimedOut or SocketError.WouldBlock;
}
