using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// Publish/subscribe on one fast-uds or fast-tcp connection: its subscriptions, one per topic, each pumping its
/// queue onto the connection as Notification frames between the replies. A publication is framed
/// once (<see cref="s_frame"/>) and the same bytes go to every subscriber of either. Subscribe and
/// Unsubscribe come from the connection's own thread, one at a time; the pumps run on the pool.
/// </summary>
/// <remarks>
/// A pump sends with the connection's blocking socket: a subscriber that stops reading blocks its
/// pump once the socket buffers are full, until the registry drops it for a full queue; then the
/// connection is shut down (a frame half sent leaves nothing more to frame on), which frees the pump.
/// </remarks>
internal sealed class FastPushSession : IDisposable
{
    private static readonly PublicationFormat<byte[]> s_frame = new("fast notification frame", EncodeFrame);
    private readonly TopicRegistry _registry;
    private readonly ConnectionSender _sender;
    private readonly CancellationToken _closing;
    private readonly Dictionary<string, (PushSubscriber Subscriber, Task Pump)> _subscriptions = new(StringComparer.Ordinal);

    /// <param name="registry">The host's topics.</param>
    /// <param name="sender">The connection's writer.</param>
    /// <param name="closing">Cancelled when the connection closes: a subscription waiting for the broker stops waiting.</param>
    public FastPushSession(TopicRegistry registry, ConnectionSender sender, CancellationToken closing)
    {
        _registry = registry;
        _sender = sender;
        _closing = closing;
    }

    /// <summary>Whether the connection subscribes to any topic (then it is not idle, however long it sends nothing).</summary>
    public bool HasSubscriptions => _subscriptions.Count > 0;

    /// <summary>Handles a Subscribe, Unsubscribe or Publish frame: answers it with a Reply or an Error.</summary>
    public static void Handle(FastPushSession? session, TopicRegistry? registry, ConnectionSender sender, FrameHeader header, ReadOnlySpan<byte> body)
    {
        sender.Started(header.CallId);
        try
        {
            if (session is null || registry is null)
            {
                throw new RpcServiceException(RpcErrorCode.NotFound, "This host serves no publish/subscribe (no topic registry was added).");
            }

            switch (header.Kind)
            {
                case FrameKind.Subscribe:
                    sender.Reply(header.CallId, session.Subscribe(Decode<SubscribeRequest>(header.Kind, body)));
                    break;
                case FrameKind.Unsubscribe:
                    sender.Reply(header.CallId, session.Unsubscribe(Decode<SubscribeRequest>(header.Kind, body).Topic));
                    break;
                default:
                    var publishing = registry.PublishAsync(Decode<Notification>(header.Kind, body));
                    if (publishing.IsCompletedSuccessfully)
                    {
                        sender.Reply(header.CallId, publishing.Result);
                    }
                    else
                    {
                        // Through a broker: the connection reads on while the broker answers.
                        _ = ReplyWhenPublishedAsync(sender, header.CallId, publishing);
                    }

                    break;
            }
        }
        catch (Exception e)
        {
            sender.Error(header.CallId, e, null);
        }
    }

    private static async Task ReplyWhenPublishedAsync(ConnectionSender sender, uint callId, ValueTask<PublishReply> publishing)
    {
        try
        {
            sender.Reply(callId, await publishing.ConfigureAwait(false));
        }
        catch (Exception e)
        {
            sender.Error(callId, e, null);
        }
    }

    /// <summary>Ends every subscription of the connection (it closed); pumps stop without waiting for them.</summary>
    public void Dispose()
    {
        foreach (var (subscriber, _) in _subscriptions.Values)
        {
            subscriber.Dispose();
        }

        _subscriptions.Clear();
    }

    private SubscribeReply Subscribe(SubscribeRequest request)
    {
        var topic = request.Topic;
        if (_subscriptions.ContainsKey(topic))
        {
            throw new RpcServiceException(RpcErrorCode.InvalidArgument, $"This connection already subscribes to '{topic}'.");
        }

        // The connection's own reader thread, not the pool's: waiting here for the broker (a topic's first
        // subscriber, a resume) starves no one, and keeps the connection's requests in order.
        var (subscriber, lastSequence) = _registry.SubscribeAsync(topic, request.After, _closing).AsTask().GetAwaiter().GetResult();
        _subscriptions.Add(topic, (subscriber, PumpAsync(subscriber)));
        return new SubscribeReply { LastSequence = lastSequence };
    }

    // The pump's last frame goes out before the reply, so nothing of the topic follows it.
    private SubscribeReply Unsubscribe(string topic)
    {
        if (!_subscriptions.Remove(topic, out var subscription))
        {
            throw new RpcServiceException(RpcErrorCode.NotFound, $"This connection does not subscribe to '{topic}'.");
        }

        subscription.Subscriber.Dispose();
        subscription.Pump.GetAwaiter().GetResult();
        return new SubscribeReply();
    }

    private async Task PumpAsync(PushSubscriber subscriber)
    {
        await Task.Yield();
        var sending = 0;
        using var shutDownWhenDroppedMidSend = subscriber.Ended.Register(() =>
        {
            if (subscriber.EndReason is not null && Volatile.Read(ref sending) == 1)
            {
                _sender.Dispose();
            }
        });
        try
        {
            var reader = subscriber.Notifications;
            while (await reader.WaitToReadAsync(subscriber.Ended))
            {
                while (reader.TryRead(out var publication))
                {
                    Volatile.Write(ref sending, 1);
                    var sent = _sender.SendBuilt(publication.Encoded(s_frame));
                    Volatile.Write(ref sending, 0);
                    if (!sent)
                    {
                        // The connection is gone; its loop ends the session.
                        return;
                    }
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException or PushSubscriberDisconnectedException)
        {
            if (subscriber.EndReason is { } reason)
            {
                _sender.SendProtocolOrClose(FrameKind.SubscriptionEnded, new SubscriptionEndedBody { Topic = subscriber.Topic, Reason = reason });
            }
        }
    }

    private static T Decode<T>(FrameKind kind, ReadOnlySpan<byte> body)
    {
        try
        {
            return Body.ReadMessage<T>(body);
        }
        catch (Exception e)
        {
            throw new RpcServiceException(RpcErrorCode.InvalidArgument, $"The {kind} frame's body is not a {typeof(T).Name}: {e.Message}");
        }
    }

    private static byte[] EncodeFrame(Notification notification)
    {
        using var writer = new FrameWriter();
        Body.WriteMessage(writer, notification);
        return writer.Complete(FrameKind.Notification, 0, 0).ToArray();
    }
}
