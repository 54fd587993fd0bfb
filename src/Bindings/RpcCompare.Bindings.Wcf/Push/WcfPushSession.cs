using CoreWCF;
using Microsoft.Extensions.Logging;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push;

/// <summary>
/// One client session of the duplex push service: its subscriptions, one pump per subscription
/// moving the subscriber's queue onto the callback channel. The channel sends one message at a
/// time per session, so the pumps of one session take turns; sessions never wait for each other.
/// </summary>
internal sealed partial class WcfPushSession
{
    private readonly Dictionary<string, PushSubscriber> _subscriptions = new(StringComparer.Ordinal);
    private readonly TopicRegistry _registry;
    private readonly IPushCallback _callback;
    private readonly ICommunicationObject _channel;
    private readonly WcfPushService _service;
    private readonly ILogger _logger;
    private bool _watched;
    private bool _ended;

    public WcfPushSession(string id, TopicRegistry registry, IPushCallback callback, WcfPushService service, ILogger logger)
    {
        Id = id;
        _registry = registry;
        _callback = callback;
        // The callback proxy is the session's channel: its state and events are the session's.
        _channel = (ICommunicationObject)callback;
        _service = service;
        _logger = logger;
    }

    public string Id { get; }

    /// <summary>
    /// Ends the session's subscriptions when its channel closes or faults (the client left,
    /// or its connection broke); false when it already has.
    /// </summary>
    public bool Watch(Action forget)
    {
        lock (_subscriptions)
        {
            if (!_watched)
            {
                _watched = true;
                _channel.Closed += (_, _) => End(forget);
                _channel.Faulted += (_, _) => End(forget);
            }

            if (_channel.State is CommunicationState.Closing or CommunicationState.Closed or CommunicationState.Faulted)
            {
                End(forget);
            }

            return !_ended;
        }
    }

    /// <summary>Subscribes the session to a topic; notifications flow once this returns.</summary>
    public long Subscribe(string topic)
    {
        lock (_subscriptions)
        {
            ObjectDisposedException.ThrowIf(_ended, this);
            if (_subscriptions.ContainsKey(topic))
            {
                throw new InvalidOperationException($"This session already subscribes to '{topic}'.");
            }

            var subscriber = _registry.Subscribe(topic, out var lastSequence);
            _subscriptions.Add(topic, subscriber);
            _ = PumpAsync(subscriber);
            return lastSequence;
        }
    }

    public void Unsubscribe(string topic)
    {
        PushSubscriber? subscriber;
        lock (_subscriptions)
        {
            _subscriptions.Remove(topic, out subscriber);
        }

        subscriber?.Dispose();
    }

    private async Task PumpAsync(PushSubscriber subscriber)
    {
        // A stalled client leaves the pump waiting in a send; when the registry drops the
        // subscriber, abort the session's channel, which fails that send and tells the client.
        await using var abortWhenDropped = subscriber.Ended.Register(() =>
        {
            if (subscriber.EndReason is { } reason)
            {
                Log.SubscriberDropped(_logger, Id, subscriber.Topic, reason);
                _channel.Abort();
            }
        });
        try
        {
            await foreach (var publication in subscriber.Notifications.ReadAllAsync())
            {
                await _service.SendAsync(_callback, publication);
            }
        }
        catch (PushSubscriberDisconnectedException)
        {
            // Dropped; the channel is being aborted above.
        }
        catch (Exception exception) when (exception is CommunicationException or TimeoutException or ObjectDisposedException)
        {
            // The connection broke or the channel was aborted: the session's other pumps fail alike.
            Log.SendFailed(_logger, Id, subscriber.Topic, exception.Message);
            _channel.Abort();
        }
        finally
        {
            Forget(subscriber);
        }
    }

    // Only this subscriber: the topic may have been unsubscribed and subscribed again meanwhile.
    private void Forget(PushSubscriber subscriber)
    {
        lock (_subscriptions)
        {
            if (_subscriptions.TryGetValue(subscriber.Topic, out var current) && ReferenceEquals(current, subscriber))
            {
                _subscriptions.Remove(subscriber.Topic);
            }
        }

        subscriber.Dispose();
    }

    private void End(Action forget)
    {
        List<PushSubscriber> subscribers;
        lock (_subscriptions)
        {
            if (_ended)
            {
                return;
            }

            _ended = true;
            subscribers = [.. _subscriptions.Values];
            _subscriptions.Clear();
        }

        forget();
        foreach (var subscriber in subscribers)
        {
            subscriber.Dispose();
        }
    }

    private static partial class Log
    {
        [LoggerMessage(1, LogLevel.Warning, "WCF push session {Session}: subscriber of '{Topic}' dropped ({Reason}); aborting the session's channel")]
        public static partial void SubscriberDropped(ILogger logger, string session, string topic, string reason);

        [LoggerMessage(2, LogLevel.Debug, "WCF push session {Session}: sending on '{Topic}' failed ({Reason}); ending the session")]
        public static partial void SendFailed(ILogger logger, string session, string topic, string reason);
    }
}
