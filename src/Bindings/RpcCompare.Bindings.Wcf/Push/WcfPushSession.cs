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
    private readonly SessionSubscribers _subscribers;
    private readonly IPushCallback _callback;
    private readonly ICommunicationObject _channel;
    private readonly WcfPushService _service;
    private readonly ILogger _logger;

    // ended: called once when the session ends, so the service forgets it.
    public WcfPushSession(string id, TopicRegistry registry, IPushCallback callback, WcfPushService service, ILogger logger, Action<WcfPushSession> ended)
    {
        Id = id;
        _subscribers = new SessionSubscribers(registry, id);
        _callback = callback;
        // The callback proxy is the session's channel: its state and events are the session's.
        _channel = (ICommunicationObject)callback;
        _service = service;
        _logger = logger;

        // The client left or its connection broke: every subscription of the session ends.
        void End()
        {
            if (_subscribers.Close())
            {
                ended(this);
            }
        }

        _channel.Closed += (_, _) => End();
        _channel.Faulted += (_, _) => End();
        if (_channel.State is CommunicationState.Closing or CommunicationState.Closed or CommunicationState.Faulted)
        {
            End();
        }
    }

    public string Id { get; }

    public bool IsEnded => _subscribers.IsClosed;

    /// <summary>Subscribes the session to a topic; notifications flow once this returns.</summary>
    public async Task<long> SubscribeAsync(string topic, long? after)
    {
        var (subscriber, lastSequence) = await _subscribers.SubscribeAsync(topic, after);
        _ = PumpAsync(subscriber);
        return lastSequence;
    }

    public void Unsubscribe(string topic) => _subscribers.Unsubscribe(topic);

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
            _subscribers.Forget(subscriber);
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
