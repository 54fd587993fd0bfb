using System.Collections.Concurrent;
using System.Net.Sockets;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// One client connection, read on a thread of its own with blocking receives (no thread-pool hop
/// per message: docs/measurements/fast-stage0-waiting-modes-20261126.md), after its listener has
/// negotiated the transport there (fast-tcp's TLS handshake) and said who the caller is. Requests are dispatched
/// on that thread; a call that completes at once is answered at once, a pending one from its
/// continuation, so replies go out in the order calls finish (<see cref="Sender"/>).
/// </summary>
internal sealed partial class FastServerConnection : IDisposable
{
    private readonly FastTransport _transport;
    private readonly FastListener _listener;
    private readonly FastDispatcher _dispatcher;
    private readonly FastBindingOptions _options;
    private readonly ConnectionIncidents _incidents;
    private readonly ILogger _logger;
    private readonly RpcServiceException? _overLimit;
    private readonly ConcurrentDictionary<uint, InboundStream> _inbound = new();
    private readonly CancellationTokenSource _closing = new();
    private readonly BusyCount _handling;
    private readonly Func<bool> _clientHungUp;
    private FastPushSession? _push;

    // overLimit: when set, the connection is told this (an Error frame for the connection, id 0) and closed, unless its caller is refused first.
    public FastServerConnection(FastTransport transport, FastListener listener, FastDispatcher dispatcher, FastBindingOptions options, ConnectionIncidents incidents,
        ILogger logger, long id, RpcServiceException? overLimit, BusyCount handling)
    {
        _handling = handling;
        _transport = transport;
        _listener = listener;
        _dispatcher = dispatcher;
        _options = options;
        _incidents = incidents;
        _logger = logger;
        Id = id;
        _overLimit = overLimit;
        Sender = new ConnectionSender(transport, logger, id);
        _clientHungUp = () => PeerHangUp.HasHappened(_transport.Socket);
    }

    public long Id { get; }

    /// <summary>Where calls send their replies and errors.</summary>
    public ConnectionSender Sender { get; }

    /// <summary>The connection's loop; returns when it is closed, by either side.</summary>
    public void Run()
    {
        // Stream chunks are up to 64 KiB whatever the message limit; a request's own limit is checked in Handle.
        // A traced request's context is not counted against the limit (Handle checks the message): room for it here.
        using var reader = new FrameReader(_transport, (int)Math.Min(Math.Max((long)_options.MaxMessageSize + TraceContext.Size, StreamChunks.Size), int.MaxValue)) { FrameTimeout = _options.FrameTimeout, SpinTicks = SpinBeforeBlocking.Ticks(_options.SpinWait), MaySpin = () => Sender.InFlight == 0 && _handling.Count == 0 };
        var reason = "closed by the client";
        try
        {
            var (caller, denied) = _listener.Accept(_transport, _incidents);
            // Set once: every call dispatched on this thread (and its continuations) sees who connected.
            CallerIdentity.Current = caller;
            if ((denied is not null ? new RpcServiceException(RpcErrorCode.PermissionDenied, denied) : _overLimit) is { } refusal)
            {
                Sender.ConnectionError(refusal);
                Linger();
                reason = "refused: " + refusal.Message;
                return;
            }

            // A receive wakes at least this often, so a stalled frame is noticed and idle time counted.
            _transport.SetReceiveTimeout((int)Math.Min(_options.FrameTimeout.TotalMilliseconds, int.MaxValue));
            // A send that makes no progress for as long (the client stopped reading) closes the connection (ConnectionSender.Send).
            _transport.SetSendTimeout((int)Math.Min(_options.FrameTimeout.TotalMilliseconds, int.MaxValue));
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
                    // Idle means no frame, no call in flight and no subscription: a long call, or a subscriber waiting for news, keeps its connection.
                    // The idle time counts from the last request or the last answer, whichever is later: a client that had to wait
                    // a minute for its answer has not been idle for that minute, and its next call must not race the close.
                    if (Sender.InFlight > 0 || _push is { HasSubscriptions: true } || _options.IdleTimeout == Timeout.InfiniteTimeSpan
                        || Environment.TickCount64 - Math.Max(lastFrame, Sender.LastFinished) < _options.IdleTimeout.TotalMilliseconds)
                    {
                        continue;
                    }

                    _incidents.Add(ConnectionIncident.Idle, "closed after the idle timeout");
                    reason = "idle";
                    return;
                }

                lastFrame = Environment.TickCount64;
                _handling.Enter();
                try
                {
                    Handle(header, body);
                }
                finally
                {
                    _handling.Leave();
                }
            }
        }
        catch (FrameTooLargeException e)
        {
            // Call id 0: the client's call fails with it and the client drops the connection, which closes now.
            Sender.ConnectionError(new RpcServiceException(RpcErrorCode.QuotaExceeded,
                $"The request is {e.BodyLength:#,0} bytes, over the server's limit of {_options.MaxMessageSize:#,0} bytes ({_options.Section}:MaxMessageSize); the connection is closed."));
            _incidents.Add(ConnectionIncident.Malformed, "an over-limit message (answered QuotaExceeded, closed)");
            // Drain what the client is still sending (bounded, as after a refusal): closing with its request unread would
            // fail its send mid-frame, and it could reach the failure before the answer that says why.
            Linger();
            reason = e.Message;
        }
        catch (FastProtocolException e)
        {
            _incidents.Add(ConnectionIncident.Malformed, "bytes that are not the fast protocol");
            reason = e.Message;
        }
        catch (TlsHandshakeException e) when (_closing.IsCancellationRequested)
        {
            // The host stopping cut the handshake short: the client did nothing wrong.
            reason = "closed by the server during the TLS handshake: " + e.Message;
        }
        catch (TlsHandshakeException e)
        {
            // A plaintext client, garbage, a certificate the client refused, or a handshake left unfinished.
            _incidents.Add(e.TimedOut ? ConnectionIncident.Stalled : ConnectionIncident.Malformed, e.TimedOut ? "a TLS handshake left unfinished past the handshake timeout" : "a TLS handshake that failed");
            reason = e.TimedOut ? e.Message : "the TLS handshake failed: " + e.Message;
        }
        catch (Exception e) when (e is FrameStalledException || (e is SocketException s && IsTimeout(s)))
        {
            _incidents.Add(ConnectionIncident.Stalled, "a frame left unfinished past the frame timeout");
            reason = "stalled inside a frame";
        }
        catch (Exception e) when (e is SocketException or EndOfStreamException or ObjectDisposedException or OperationCanceledException)
        {
            _incidents.Add(ConnectionIncident.Dropped, "went away inside a frame");
            reason = e.Message;
        }
        catch (Exception e)
        {
            // A bug here must cost this connection only, never the host (this is a thread of its own).
            FastServerLog.OperationFailed(_logger, e, "connection loop", Id);
            reason = "failed: " + e.Message;
        }
        finally
        {
            if (Sender.StalledReader)
            {
                _incidents.Add(ConnectionIncident.Stalled, "a client that read nothing sent to it (replies, notifications) for the frame timeout");
                reason = $"stopped reading: a send made no progress for {_options.FrameTimeout.TotalSeconds:0.###} s ({_options.Section}:FrameTimeout)";
            }

            Dispose();
            FastServerLog.ConnectionClosed(_logger, Id, reason);
        }
    }

    /// <summary>Closes the connection: a call still running sends nothing, a request stream still being read fails.</summary>
    public void Dispose()
    {
        _closing.Cancel();
        Sender.Dispose();
        _push?.Dispose();
        foreach (var inbound in _inbound.Values)
        {
            inbound.Complete(new IOException("The client's connection closed before its stream ended."));
        }

        _inbound.Clear();
        _transport.Dispose();
        _closing.Dispose();
    }

    /// <summary>Closes the connection from the server's side (the host is stopping): its loop then ends.</summary>
    public void Abort()
    {
        try
        {
            _closing.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // Its loop has already ended.
        }

        Sender.Dispose();
    }

    /// <summary>
    /// After a refusal or an over-limit request: stops sending and discards what the client sends for up to two seconds, until
    /// it closes. Closing with its first request unread would reset the connection, and the client
    /// could lose the refusal it has not read yet.
    /// </summary>
    private void Linger()
    {
        try
        {
            _transport.Socket.Shutdown(SocketShutdown.Send);
            _transport.Socket.ReceiveTimeout = 500;
            Span<byte> discard = stackalloc byte[16 * 1024];
            var until = Environment.TickCount64 + 2000;
            while (Environment.TickCount64 < until && _transport.Socket.Receive(discard) > 0)
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
