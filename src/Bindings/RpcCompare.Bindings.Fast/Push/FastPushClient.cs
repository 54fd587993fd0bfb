using System.Collections.Concurrent;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Bindings.Push;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Fast.Push;

/// <summary>
/// Publish/subscribe on one fast-uds or fast-tcp connection of its own (in TLS when the endpoint says so). Unlike the pooled call connections,
/// which read each reply right after their request on the caller's thread, a read loop owns the
/// receiving side: the server sends Notification frames between replies, and replies are matched
/// to their calls by id. Asynchronous throughout: a process may hold thousands of these.
/// </summary>
internal sealed class FastPushClient : IPushClient
{
    private readonly FastEndpoint _endpoint;
    private readonly FastClientOptions _options;
    private readonly SemaphoreSlim _sendLock = new(1, 1);
    private readonly FrameWriter _writer = new(256);
    private readonly ConcurrentDictionary<uint, TaskCompletionSource<ReadOnlyMemory<byte>>> _pending = new();
    private readonly PushSubscriptionTable _subscriptions = new();
    private Stream? _stream;
    private Task? _readLoop;
    private Exception? _broken;
    private uint _lastCallId;

    public FastPushClient(FastEndpoint endpoint, FastClientOptions options)
    {
        _endpoint = endpoint;
        _options = options;
    }

    public async Task<IPushSubscription> SubscribeAsync(string topic, Action<Notification> onNotification, long? after = null, CancellationToken cancellationToken = default)
    {
        var subscription = _subscriptions.Add(topic ?? "", onNotification, UnsubscribeAsync);
        try
        {
            await CallAsync<SubscribeRequest, SubscribeReply>(FrameKind.Subscribe, new SubscribeRequest { Topic = subscription.Topic, After = after }, cancellationToken);
            return subscription;
        }
        catch
        {
            _subscriptions.Remove(subscription);
            throw;
        }
    }

    public Task<PublishReply> PublishAsync(Notification notification, CancellationToken cancellationToken = default) =>
        CallAsync<Notification, PublishReply>(FrameKind.Publish, NotificationTrace.WithCallersTrace(notification), cancellationToken);

    public async ValueTask DisposeAsync()
    {
        await _sendLock.WaitAsync();
        try
        {
            Interlocked.CompareExchange(ref _broken, new ObjectDisposedException(nameof(FastPushClient)), null);
            _stream?.Dispose();
        }
        finally
        {
            _sendLock.Release();
        }

        if (_readLoop is not null)
        {
            await _readLoop;
        }

        _subscriptions.EndAll(reason: null, cause: null);
        _writer.Dispose();
    }

    /// <summary>Unsubscribes on the server; afterwards nothing of the topic is delivered.</summary>
    private async Task UnsubscribeAsync(RoutedPushSubscription subscription)
    {
        if (!_subscriptions.Contains(subscription))
        {
            return;
        }

        try
        {
            await CallAsync<SubscribeRequest, SubscribeReply>(FrameKind.Unsubscribe, new SubscribeRequest { Topic = subscription.Topic }, CancellationToken.None);
        }
        catch (Exception e) when (e is IOException or ObjectDisposedException)
        {
            // The connection is gone, and the subscription with it.
        }

        _subscriptions.Remove(subscription);
    }

    private async Task<TReply> CallAsync<TRequest, TReply>(FrameKind kind, TRequest request, CancellationToken cancellationToken)
    {
        var reply = new TaskCompletionSource<ReadOnlyMemory<byte>>(TaskCreationOptions.RunContinuationsAsynchronously);
        uint callId;
        await _sendLock.WaitAsync(cancellationToken);
        try
        {
            ThrowIfBroken();

            _writer.Reset();
            Body.WriteMessage(_writer, request);
            if (_writer.BodyLength > _options.MaxMessageSize)
            {
                throw FastClientErrors.RequestTooLarge(_writer.BodyLength, _options.MaxMessageSize);
            }

            var stream = _stream ?? await ConnectAsync(cancellationToken);
            callId = ++_lastCallId == 0 ? ++_lastCallId : _lastCallId;
            _pending[callId] = reply;
            if (Volatile.Read(ref _broken) is not null && _pending.TryRemove(callId, out _))
            {
                // The read loop ended (a server refusing the connection says so at once) before it could fail this call.
                ThrowIfBroken();
            }

            await stream.WriteAsync(_writer.CompleteMemory(kind, 0, callId), CancellationToken.None);
        }
        finally
        {
            _sendLock.Release();
        }

        try
        {
            return Body.ReadMessage<TReply>((await reply.Task.WaitAsync(cancellationToken)).Span);
        }
        catch (OperationCanceledException)
        {
            _pending.TryRemove(callId, out _);
            throw;
        }
    }

    private void ThrowIfBroken()
    {
        if (Volatile.Read(ref _broken) is { } broken)
        {
            throw broken is ObjectDisposedException or RpcServiceException ? broken : new IOException($"The push connection to {_endpoint} is closed: {broken.Message}", broken);
        }
    }

    private async Task<Stream> ConnectAsync(CancellationToken cancellationToken)
    {
        _stream = await _endpoint.ConnectStreamAsync(cancellationToken);
        _readLoop = ReadLoopAsync(_stream);
        return _stream;
    }

    private async Task ReadLoopAsync(Stream stream)
    {
        await Task.Yield();
        var header = new byte[FrameHeader.Size];
        Exception ended;
        try
        {
            while (true)
            {
                if (await stream.ReadAtLeastAsync(header, header.Length, throwOnEndOfStream: false) < header.Length)
                {
                    throw new EndOfStreamException("The server closed the connection.");
                }

                FrameHeader frame;
                try
                {
                    frame = FrameHeader.Read(header, _options.MaxMessageSize);
                }
                catch (FrameTooLargeException e)
                {
                    throw new RpcServiceException(RpcErrorCode.QuotaExceeded,
                        $"The server sent a frame of {e.BodyLength:#,0} bytes, over the client's limit of {_options.MaxMessageSize:#,0} bytes (FastClientOptions.MaxMessageSize); the push connection is closed.");
                }

                var body = new byte[frame.BodyLength];
                await stream.ReadExactlyAsync(body);
                Receive(frame, body);
            }
        }
        catch (Exception e)
        {
            ended = e;
        }

        Interlocked.CompareExchange(ref _broken, ended, null);
        var disposed = _broken is ObjectDisposedException;
        var reason = disposed ? "the client was disposed" : ended.Message;
        foreach (var callId in _pending.Keys)
        {
            if (_pending.TryRemove(callId, out var call))
            {
                call.TrySetException(ended is RpcServiceException ? ended : new IOException($"The push connection to {_endpoint} closed before the reply: {reason}", ended));
            }
        }

        _subscriptions.EndAll(disposed ? null : $"The push connection to {_endpoint} closed: {reason}", ended);
    }

    private void Receive(FrameHeader header, byte[] body)
    {
        switch (header.Kind)
        {
            case FrameKind.Notification:
                _subscriptions.Deliver(Body.ReadMessage<Notification>(body));
                break;
            case FrameKind.SubscriptionEnded:
                var ended = Body.ReadProtocol<SubscriptionEndedBody>(body);
                _subscriptions.End(ended.Topic, ended.Reason);
                break;
            case FrameKind.Error when header.CallId == 0:
                // The connection itself was refused or closed (over the server's connection limit): every call fails with it.
                throw FastErrors.ToException(Body.ReadProtocol<ErrorBody>(body), null);
            case FrameKind.Reply or FrameKind.Error:
                if (!_pending.TryRemove(header.CallId, out var call))
                {
                    // A call cancelled while its answer was on the way.
                    break;
                }

                if (header.Kind == FrameKind.Reply)
                {
                    call.TrySetResult(body);
                }
                else
                {
                    call.TrySetException(FastErrors.ToException(Body.ReadProtocol<ErrorBody>(body), null));
                }

                break;
            default:
                throw new FastProtocolException($"the server sent a {header.Kind} frame on a push connection");
        }
    }
}
