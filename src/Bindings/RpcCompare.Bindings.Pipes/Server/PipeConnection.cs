using System.Diagnostics;
using System.IO.Pipes;
using System.Runtime.CompilerServices;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Bindings.Security;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Contracts;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Pipes.Server;

/// <summary>
/// Serves one client: read a frame, dispatch, write the reply, in order. Anything the client
/// sends wrong ends in an error reply or, when the stream cannot be trusted any more, in closing
/// this connection only. A connection the server has no room for answers its first request with
/// the refusal and closes.
/// </summary>
internal sealed partial class PipeConnection
{
    private readonly NamedPipeServerStream _stream;
    private readonly PipeDispatcher _dispatcher;
    private readonly PipesBindingOptions _options;
    private readonly ILogger _logger;
    private readonly long _id;
    private readonly TopicRegistry? _topics;
    private readonly RpcServiceException? _refusal;
    private readonly ConnectionIncidents? _incidents;
    private readonly CallerIdentity? _caller;
    private PipePushSession? _push;

    // refusal: set when this connection is not served (the server is at its connection limit, or the
    // user is not one it serves): the answer to its first request, after which it is closed.
    // incidents: where a connection closed for the client's misbehaviour is counted.
    // caller: who connected, for the service's CallerIdentity.Current during every call of this connection.
    public PipeConnection(NamedPipeServerStream stream, PipeDispatcher dispatcher, PipesBindingOptions options, ILogger logger, long id, TopicRegistry? topics,
        RpcServiceException? refusal = null, ConnectionIncidents? incidents = null, CallerIdentity? caller = null)
    {
        _caller = caller;
        _incidents = incidents;
        _stream = stream;
        _dispatcher = dispatcher;
        _options = options;
        _logger = logger;
        _id = id;
        _topics = topics;
        _refusal = refusal;
    }

    public async Task RunAsync(CancellationToken cancellationToken)
    {
        // Once per connection: every call dispatched below runs on this flow and sees it.
        CallerIdentity.Current = _caller;
        PipeServerLog.ConnectionOpened(_logger, _id);
        using var request = new FrameBuffer();
        using var reply = new FrameBuffer();
        // One timer per connection, armed while a frame is incomplete (frame timeout) or none has begun (idle timeout).
        using var frameTimeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var writingReply = false;
        try
        {
            while (true)
            {
                // A refused client gets the frame timeout for its whole first request, not an open-ended
                // wait; another waits for its next request up to the idle timeout, unless subscribed
                // (a subscriber waits for notifications, not to send).
                var idle = _refusal is null && _push is null && _options.IdleTimeout != Timeout.InfiniteTimeSpan;
                frameTimeout.CancelAfter(_refusal is not null ? _options.FrameTimeout : idle ? _options.IdleTimeout : Timeout.InfiniteTimeSpan);

                // Inline rather than a helper method: an awaiting helper would allocate its state machine per request.
                var header = request.Header;
                int read;
                try
                {
                    read = await _stream.ReadAsync(header, frameTimeout.Token);
                }
                catch (OperationCanceledException) when (idle && !cancellationToken.IsCancellationRequested)
                {
                    PipeServerLog.IdleClosed(_logger, _id, _options.IdleTimeout.TotalSeconds);
                    return;
                }

                if (read == 0)
                {
                    break;
                }

                frameTimeout.CancelAfter(_options.FrameTimeout);
                while (read < header.Length)
                {
                    var more = await _stream.ReadAsync(header[read..], frameTimeout.Token);
                    read += more > 0 ? more : throw new EndOfStreamException();
                }

                var (length, code) = PipeFrame.ReadHeader(header.Span);
                // A traced request's context is not part of its message: the limit does not count it.
                var traced = (code & PipeFrame.TraceContextFlag) != 0;
                code &= unchecked((byte)~PipeFrame.TraceContextFlag);
                // Array.MaxLength: a limit configured within a context of int.MaxValue must not let a body past what one buffer holds.
                if (length - (traced ? BinaryTraceContext.Size : 0) > _options.MaxMessageSize || length > Array.MaxLength)
                {
                    if (!await RefuseOversizedAsync(length, reply, frameTimeout.Token))
                    {
                        return;
                    }

                    Disarm(frameTimeout, cancellationToken);
                    continue;
                }

                for (var received = 0; received < length;)
                {
                    var more = await _stream.ReadAsync(request.ReceiveRoom(received, (int)length - received), frameTimeout.Token);
                    received += more > 0 ? more : throw new EndOfStreamException();
                }

                // A request whose last byte came as the timeout fired is not dispatched: its reply could not be written.
                Disarm(frameTimeout, cancellationToken);
                var body = request.ReceivedBody((int)length);
                var parent = default(ActivityContext);
                var badContext = traced ? BinaryTraceContext.TryRead(body.Span, RpcServerTelemetry.IsEnabled, out parent) : null;
                if (traced)
                {
                    body = body[Math.Min(BinaryTraceContext.Size, body.Length)..];
                }

                // From the request read to the reply written; nothing unless something listens (RpcServerTelemetry).
                var telemetry = _refusal is null && badContext is null ? PipeOperationTelemetry.Start(code, parent) : default;
                try
                {
                    var status = _refusal is not null ? WriteError(reply, _refusal.Code, _refusal.Message)
                        : badContext is not null ? WriteError(reply, RpcErrorCode.InvalidArgument, $"The request is malformed: {badContext}.")
                        : await DispatchAsync((OperationCode)code, body, reply);
                    // Subscribed: pushed frames share the stream, so replies queue behind the frame being written.
                    var write = _push is null ? _stream.WriteAsync(reply.Complete(status), frameTimeout.Token) : _push.WriteAsync(reply.Complete(status), frameTimeout.Token);
                    if (!write.IsCompletedSuccessfully)
                    {
                        // Not taken at once: the client gets the frame timeout to take its whole reply, not an open-ended
                        // write holding its connection (the idle timeout does not run meanwhile). Armed only here, so a
                        // reply the socket takes at once costs no timer change.
                        frameTimeout.CancelAfter(_options.FrameTimeout);
                        writingReply = true;
                        await write;
                        Disarm(frameTimeout, cancellationToken);
                        writingReply = false;
                    }

                    telemetry.End(status == PipeFrame.Success ? null : (RpcErrorCode)status);
                }
                catch (Exception e)
                {
                    // The connection ends (the handlers below): the call's span ends with it.
                    telemetry.End(e);
                    throw;
                }

                if (_refusal is not null)
                {
                    return;
                }

                request.Reset();
                reply.Reset();
            }

            PipeServerLog.ConnectionClosed(_logger, _id);
        }
        catch (EndOfStreamException)
        {
            PipeServerLog.TruncatedFrame(_logger, _id);
            _incidents?.Add(ConnectionIncident.Malformed, "ended mid-frame");
        }
        catch (IOException exception)
        {
            PipeServerLog.ConnectionFailed(_logger, _id, exception.Message);
            _incidents?.Add(ConnectionIncident.Dropped, "io error");
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The host is stopping.
        }
        catch (OperationCanceledException) when (writingReply)
        {
            PipeServerLog.StoppedReading(_logger, _id, _options.FrameTimeout.TotalSeconds);
            _incidents?.Add(ConnectionIncident.Stalled, "a reply not taken within the frame timeout");
        }
        catch (OperationCanceledException)
        {
            PipeServerLog.StalledFrame(_logger, _id, _options.FrameTimeout.TotalSeconds);
            _incidents?.Add(ConnectionIncident.Stalled, "frame timeout");
        }
        finally
        {
            // The stream first: a subscription stuck writing to a client that stopped reading then ends too.
            await _stream.DisposeAsync();
            if (_push is not null)
            {
                await _push.DisposeAsync();
            }
        }
    }

    // Stops the frame timer once a frame's (or a reply's) last byte has passed. Fired in between, its token stays
    // cancelled and every later read or write would fail at once, so the connection ends here, as stalled.
    private static void Disarm(CancellationTokenSource frameTimeout, CancellationToken hostStopping)
    {
        frameTimeout.CancelAfter(Timeout.InfiniteTimeSpan);
        if (frameTimeout.IsCancellationRequested && !hostStopping.IsCancellationRequested)
        {
            throw new OperationCanceledException(frameTimeout.Token);
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<byte> DispatchAsync(OperationCode operation, ReadOnlyMemory<byte> body, FrameBuffer reply)
    {
        reply.Reset();
        try
        {
            switch (operation)
            {
                // Subscriptions belong to this connection, so they are handled here rather than by the dispatcher.
                case OperationCode.Subscribe:
                    PushCodec.WriteSubscribeReply(reply, await Push().SubscribeAsync(MessageCodec.Decode(body.Span, PushCodec.ReadSubscribeRequest)));
                    break;
                case OperationCode.Unsubscribe:
                    PushCodec.WriteSubscribeReply(reply, await Push().UnsubscribeAsync(MessageCodec.Decode(body.Span, PushCodec.ReadSubscribeRequest)));
                    break;
                default:
                    await _dispatcher.DispatchAsync(operation, body, reply);
                    break;
            }

            if (reply.BodyLength > _options.MaxMessageSize)
            {
                return WriteError(reply, RpcErrorCode.QuotaExceeded,
                    $"The reply of {reply.BodyLength} bytes exceeds the pipes server's limit of {_options.MaxMessageSize} bytes (Pipes:MaxMessageSize).");
            }

            return PipeFrame.Success;
        }
        catch (RpcServiceException exception)
        {
            return WriteError(reply, exception.Code, exception.Message);
        }
        catch (PipeProtocolException exception)
        {
            return WriteError(reply, RpcErrorCode.InvalidArgument, exception.Message);
        }
        catch (Exception exception) when (exception is not OperationCanceledException)
        {
            PipeServerLog.OperationFailed(_logger, exception, (byte)operation, _id);
            return WriteError(reply, RpcErrorCode.Internal, $"The service failed: {exception.Message}");
        }
    }

    private PipePushSession Push() => _push ??= new PipePushSession(_stream, _topics
        ?? throw new RpcServiceException(RpcErrorCode.NotFound, "This host serves no publish/subscribe (no topic registry was added)."));
}
