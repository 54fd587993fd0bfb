using System.IO.Pipes;
using System.Text;
using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Bindings.Push;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Pipes.Push;

/// <summary>
/// Publish/subscribe on one pipe connection. Unlike <see cref="PipeRpcClient"/>, which reads each
/// reply right after its request, a read loop owns the receiving side: the server pushes
/// notification frames between replies, and replies still arrive in request order.
/// </summary>
internal sealed class PipePushClient : IPushClient
{
    private readonly string _path;
    private readonly PipesClientOptions _options;
    private readonly SemaphoreSlim _sendLock = new(1, 1);
    private readonly Queue<TaskCompletionSource<(byte Status, byte[] Body)>> _pending = new();
    private readonly PushSubscriptionTable _subscriptions = new();
    private NamedPipeClientStream? _stream;
    private Task? _readLoop;
    private Exception? _broken;

    public PipePushClient(string path, PipesClientOptions options)
    {
        _path = path;
        _options = options;
    }

    public async Task<IPushSubscription> SubscribeAsync(string topic, Action<Notification> onNotification, long? after = null, CancellationToken cancellationToken = default)
    {
        var subscription = _subscriptions.Add(topic ?? "", onNotification, UnsubscribeAsync);
        try
        {
            await CallAsync(OperationCode.Subscribe, new SubscribeRequest { Topic = subscription.Topic, After = after }, PushCodec.WriteSubscribeRequest, PushCodec.ReadSubscribeReply, cancellationToken);
            return subscription;
        }
        catch
        {
            _subscriptions.Remove(subscription);
            throw;
        }
    }

    public Task<PublishReply> PublishAsync(Notification notification, CancellationToken cancellationToken = default) =>
        CallAsync(OperationCode.Publish, NotificationTrace.WithCallersTrace(notification), PushCodec.WriteNotification, PushCodec.ReadPublishReply, cancellationToken);

    public async ValueTask DisposeAsync()
    {
        await _sendLock.WaitAsync();
        try
        {
            _broken ??= new ObjectDisposedException(nameof(PipePushClient));
            if (_stream is not null)
            {
                await _stream.DisposeAsync();
            }
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
            await CallAsync(OperationCode.Unsubscribe, new SubscribeRequest { Topic = subscription.Topic }, PushCodec.WriteSubscribeRequest, PushCodec.ReadSubscribeReply, CancellationToken.None);
        }
        catch (Exception exception) when (exception is IOException or ObjectDisposedException)
        {
            // The connection is gone, and the subscription with it.
        }

        _subscriptions.Remove(subscription);
    }

    private async Task<TReply> CallAsync<TRequest, TReply>(OperationCode operation, TRequest request, PayloadEncoder<TRequest> encode, PayloadDecoder<TReply> decode, CancellationToken cancellationToken)
    {
        TaskCompletionSource<(byte Status, byte[] Body)> reply = new(TaskCreationOptions.RunContinuationsAsynchronously);
        await _sendLock.WaitAsync(cancellationToken);
        try
        {
            if (_broken is not null)
            {
                throw _broken is ObjectDisposedException ? _broken : new IOException($"The pipes push connection to '{_path}' is closed: {_broken.Message}", _broken);
            }

            using var frame = new FrameBuffer();
            var code = frame.BeginRequest(operation);
            encode(frame, request);
            var messageLength = frame.MessageLength;
            if (messageLength > _options.MaxMessageSize)
            {
                throw new RpcServiceException(RpcErrorCode.QuotaExceeded,
                    $"The request of {messageLength} bytes exceeds the pipes client's limit of {_options.MaxMessageSize} bytes; nothing was sent.");
            }

            var stream = _stream ?? await ConnectAsync();
            lock (_pending)
            {
                _pending.Enqueue(reply);
            }

            await stream.WriteAsync(frame.Complete(code), CancellationToken.None);
        }
        finally
        {
            _sendLock.Release();
        }

        var (status, body) = await reply.Task.WaitAsync(cancellationToken);
        return status == PipeFrame.Success
            ? MessageCodec.Decode(body, decode)
            : throw new RpcServiceException((RpcErrorCode)status, Encoding.UTF8.GetString(body));
    }

    private async Task<NamedPipeClientStream> ConnectAsync()
    {
        var stream = new NamedPipeClientStream(".", _path, PipeDirection.InOut, PipeOptions.Asynchronous);
        try
        {
            await stream.ConnectAsync((int)_options.ConnectTimeout.TotalMilliseconds);
        }
        catch (Exception exception) when (exception is TimeoutException or IOException)
        {
            await stream.DisposeAsync();
            throw new IOException($"Could not connect to the pipes server at '{_path}' within {_options.ConnectTimeout.TotalSeconds:0.#} s: {exception.Message}", exception);
        }

        _stream = stream;
        _readLoop = ReadLoopAsync(stream);
        return stream;
    }

    private async Task ReadLoopAsync(NamedPipeClientStream stream)
    {
        await Task.Yield();
        var header = new byte[PipeFrame.HeaderSize];
        Exception ended;
        try
        {
            while (true)
            {
                if (!await ReadFullyAsync(stream, header))
                {
                    throw new EndOfStreamException("The server closed the connection.");
                }

                var (length, code) = PipeFrame.ReadHeader(header);
                if (length > _options.MaxMessageSize)
                {
                    throw new InvalidDataException($"A frame of {length} bytes exceeds the pipes client's limit of {_options.MaxMessageSize} bytes.");
                }

                var body = new byte[length];
                if (!await ReadFullyAsync(stream, body))
                {
                    throw new EndOfStreamException("The server closed the connection in the middle of a frame.");
                }

                Receive(code, body);
            }
        }
        catch (Exception exception)
        {
            ended = exception;
        }

        _broken ??= ended;
        List<TaskCompletionSource<(byte, byte[])>> waiting;
        lock (_pending)
        {
            waiting = [.. _pending];
            _pending.Clear();
        }

        var reason = _broken is ObjectDisposedException ? "the client was disposed" : ended.Message;
        foreach (var call in waiting)
        {
            call.TrySetException(new IOException($"The pipes push connection to '{_path}' closed before the reply: {reason}", ended));
        }

        _subscriptions.EndAll(_broken is ObjectDisposedException ? null : $"The pipes push connection to '{_path}' closed: {reason}", ended);
    }

    private void Receive(byte code, byte[] body)
    {
        switch (code)
        {
            case PipeFrame.Notification:
                _subscriptions.Deliver(MessageCodec.Decode(body, PushCodec.ReadNotification));
                break;
            case PipeFrame.SubscriptionEnded:
                var (topic, reason) = MessageCodec.Decode(body, PushCodec.ReadSubscriptionEnded);
                _subscriptions.End(topic, reason);
                break;
            default:
                TaskCompletionSource<(byte, byte[])>? call;
                lock (_pending)
                {
                    _pending.TryDequeue(out call);
                }

                if (call is null)
                {
                    throw new InvalidDataException($"The server sent a reply (code {code}) nobody asked for.");
                }

                call.TrySetResult((code, body));
                break;
        }
    }

    private static async ValueTask<bool> ReadFullyAsync(Stream stream, Memory<byte> buffer)
    {
        for (var read = 0; read < buffer.Length;)
        {
            var more = await stream.ReadAsync(buffer[read..]);
            if (more == 0)
            {
                return false;
            }

            read += more;
        }

        return true;
    }
}
