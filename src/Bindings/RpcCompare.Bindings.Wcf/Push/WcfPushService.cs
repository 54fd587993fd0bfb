using System.Collections.Concurrent;
using CoreWCF;
using Microsoft.Extensions.Logging;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push;

/// <summary>
/// The host's topic registry as a CoreWCF duplex service: each client session subscribes to
/// topics and receives their notifications through its callback channel. One instance holds
/// every session (<see cref="WcfPushEndpoints"/>); a session's subscriptions end with it.
/// </summary>
/// <remarks>Subclasses choose how a notification goes out: typed, or as a message serialized once.</remarks>
internal abstract class WcfPushService : IPushDuplexService
{
    private readonly ConcurrentDictionary<string, WcfPushSession> _sessions = new(StringComparer.Ordinal);
    private readonly TopicRegistry _registry;
    private readonly ILogger _logger;

    protected WcfPushService(TopicRegistry registry, ILogger logger)
    {
        _registry = registry;
        _logger = logger;
    }

    public async Task<SubscribeReply> SubscribeAsync(SubscribeRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        return new SubscribeReply { LastSequence = await CurrentSession().SubscribeAsync(request.Topic, request.After) };
    }

    public Task<SubscribeReply> UnsubscribeAsync(SubscribeRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        CurrentSession().Unsubscribe(request.Topic);
        return Task.FromResult(new SubscribeReply());
    }

    public Task<PublishReply> PublishAsync(Notification notification) => _registry.PublishAsync(notification).AsTask();

    /// <summary>Sends one publication through a session's callback channel.</summary>
    internal abstract Task SendAsync(IPushCallback callback, Publication publication);

    // OperationContext.Current flows with the call only: the session captures its callback channel here.
    private WcfPushSession CurrentSession()
    {
        var context = OperationContext.Current ?? throw new InvalidOperationException("The push service is called outside a WCF operation.");
        var callback = context.GetCallbackChannel<IPushCallback>();
        var session = _sessions.GetOrAdd(context.SessionId, static (id, state) =>
            new WcfPushSession(id, state.Service._registry, state.Callback, state.Service, state.Service._logger,
                ended => state.Service._sessions.TryRemove(new KeyValuePair<string, WcfPushSession>(ended.Id, ended))),
            (Service: this, Callback: callback));
        if (!session.IsEnded)
        {
            return session;
        }

        // Its channel closed before the session was stored: nothing will remove it but this.
        _sessions.TryRemove(new KeyValuePair<string, WcfPushSession>(session.Id, session));
        throw new CommunicationObjectAbortedException($"The push session {session.Id} has already ended.");
    }
}
