using System.IO.Pipes;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Pipes.Server;

/// <summary>
/// The subscriptions of one pipe connection. Each subscription pumps its queue onto the
/// connection; replies and pushed frames share the stream, so every write takes the session's
/// write lock. A publication is framed once (<see cref="s_frame"/>) and the same bytes go to every
/// pipes subscriber.
/// </summary>
internal sealed class PipePushSession : IAsyncDisposable
{
    private static readonly PublicationFormat<byte[]> s_frame = new("pipes notification frame", PushCodec.EncodeNotificationFrame);
    private readonly NamedPipeServerStream _stream;
    private readonly TopicRegistry _registry;
    private readonly SemaphoreSlim _writeLock = new(1, 1);
    private readonly Dictionary<string, (PushSubscriber Subscriber, Task Pump)> _subscriptions = new(StringComparer.Ordinal);

    public PipePushSession(NamedPipeServerStream stream, TopicRegistry registry)
    {
        _stream = stream;
        _registry = registry;
    }

    /// <summary>Writes a reply between pushed frames.</summary>
    public async ValueTask WriteAsync(ReadOnlyMemory<byte> frame, CancellationToken cancellationToken)
    {
        await _writeLock.WaitAsync(cancellationToken);
        try
        {
            await _stream.WriteAsync(frame, cancellationToken);
        }
        catch
        {
            // Cut off part-way (the client stopped reading): no pushed frame may follow half a reply, so the
            // stream is closed before the lock lets a pump write.
            await _stream.DisposeAsync();
            throw;
        }
        finally
        {
            _writeLock.Release();
        }
    }

    /// <summary>Called by the connection's read loop, one request at a time.</summary>
    public async ValueTask<SubscribeReply> SubscribeAsync(SubscribeRequest request)
    {
        if (_subscriptions.ContainsKey(request.Topic))
        {
            throw new RpcServiceException(RpcErrorCode.InvalidArgument, $"This connection already subscribes to '{request.Topic}'.");
        }

        var (subscriber, lastSequence) = await _registry.SubscribeAsync(request.Topic, request.After);
        _subscriptions.Add(request.Topic, (subscriber, PumpAsync(subscriber)));
        return new SubscribeReply { LastSequence = lastSequence };
    }

    /// <summary>Ends a subscription; its last frame is written before the reply is.</summary>
    public async ValueTask<SubscribeReply> UnsubscribeAsync(SubscribeRequest request)
    {
        if (!_subscriptions.Remove(request.Topic, out var subscription))
        {
            throw new RpcServiceException(RpcErrorCode.NotFound, $"This connection does not subscribe to '{request.Topic}'.");
        }

        subscription.Subscriber.Dispose();
        await subscription.Pump;
        return new SubscribeReply();
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var (subscriber, _) in _subscriptions.Values)
        {
            subscriber.Dispose();
        }

        await Task.WhenAll(_subscriptions.Values.Select(s => s.Pump));
        _subscriptions.Clear();
        _writeLock.Dispose();
    }

    private async Task PumpAsync(PushSubscriber subscriber)
    {
        await Task.Yield();
        var writing = false;
        // A subscriber dropped while its frame is half-written (the client stopped reading) leaves a
        // stream nothing more can be framed on: close the connection, which ends its read loop too.
        await using var closeWhenDroppedMidFrame = subscriber.Ended.Register(() =>
        {
            if (subscriber.EndReason is not null && Volatile.Read(ref writing))
            {
                _stream.Dispose();
            }
        });
        try
        {
            var reader = subscriber.Notifications;
            while (await reader.WaitToReadAsync(subscriber.Ended))
            {
                while (reader.TryRead(out var publication))
                {
                    await _writeLock.WaitAsync(subscriber.Ended);
                    try
                    {
                        Volatile.Write(ref writing, true);
                        await _stream.WriteAsync(publication.Encoded(s_frame));
                    }
                    finally
                    {
                        Volatile.Write(ref writing, false);
                        _writeLock.Release();
                    }
                }
            }
        }
        catch (Exception exception) when (exception is OperationCanceledException or PushSubscriberDisconnectedException)
        {
            if (subscriber.EndReason is { } reason)
            {
                await TryWriteEndedAsync(subscriber.Topic, reason);
            }
        }
        catch (Exception exception) when (exception is IOException or ObjectDisposedException)
        {
            // The connection is gone; its read loop ends the session.
        }
    }

    /// <summary>Tells the client why, when the connection can still take a frame within a second.</summary>
    private async Task TryWriteEndedAsync(string topic, string reason)
    {
        using var buffer = new FrameBuffer();
        PushCodec.WriteSubscriptionEnded(buffer, topic, reason);
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(1));
        try
        {
            await WriteAsync(buffer.Complete(PipeFrame.SubscriptionEnded), timeout.Token);
        }
        catch (Exception exception) when (exception is OperationCanceledException or IOException or ObjectDisposedException)
        {
            _stream.Dispose();
        }
    }
}
