using System.ServiceModel;
using RpcCompare.Bindings.Push;
using RpcCompare.Bindings.Wcf.Client;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push;

/// <summary>
/// Publish/subscribe on one WCF duplex session (one NetTcp or Unix-socket connection), opened on
/// first use. Notifications arrive as callbacks on the same connection; when the session ends
/// without the client closing it (the server dropped a stalled subscriber, or the connection
/// broke), every subscription ends with the reason.
/// </summary>
internal sealed class WcfPushClient : IPushClient
{
    private readonly DuplexChannelFactory<IPushDuplexService> _factory;
    private readonly string _binding;
    private readonly int _clientLimit;
    private readonly PushSubscriptionTable _subscriptions = new();
    private readonly SemaphoreSlim _opening = new(1, 1);
    private IPushDuplexService? _channel;
    private volatile bool _disposing;

    public WcfPushClient(DuplexChannelFactory<IPushDuplexService> factory, string binding, int clientLimit)
    {
        _factory = factory;
        _binding = binding;
        _clientLimit = clientLimit;
    }

    public async Task<IPushSubscription> SubscribeAsync(string topic, Action<Notification> onNotification, long? after = null, CancellationToken cancellationToken = default)
    {
        var channel = await ChannelAsync(cancellationToken);
        var subscription = _subscriptions.Add(topic ?? "", onNotification, UnsubscribeAsync);
        try
        {
            await CallAsync(() => channel.SubscribeAsync(new SubscribeRequest { Topic = subscription.Topic, After = after }), cancellationToken);
            return subscription;
        }
        catch
        {
            _subscriptions.Remove(subscription);
            throw;
        }
    }

    public async Task<PublishReply> PublishAsync(Notification notification, CancellationToken cancellationToken = default)
    {
        // Before the first await: the caller's span is the current one here.
        notification = NotificationTrace.WithCallersTrace(notification);
        var channel = await ChannelAsync(cancellationToken);
        return await CallAsync(() => channel.PublishAsync(notification), cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        _disposing = true;
        if (Volatile.Read(ref _channel) is ICommunicationObject channel)
        {
            if (channel.State == CommunicationState.Opened)
            {
                try
                {
                    await Task.Factory.FromAsync(channel.BeginClose, channel.EndClose, null);
                }
                catch (Exception exception) when (exception is CommunicationException or TimeoutException)
                {
                    channel.Abort();
                }
            }
            else
            {
                channel.Abort();
            }
        }

        _subscriptions.EndAll(reason: null, cause: null);
        _opening.Dispose();
    }

    private async Task UnsubscribeAsync(RoutedPushSubscription subscription)
    {
        if (!_subscriptions.Contains(subscription) || Volatile.Read(ref _channel) is not { } channel)
        {
            return;
        }

        try
        {
            await CallAsync(() => channel.UnsubscribeAsync(new SubscribeRequest { Topic = subscription.Topic }), CancellationToken.None);
        }
        catch (Exception exception) when (exception is CommunicationException or TimeoutException or ObjectDisposedException)
        {
            // The session is gone, and the subscription with it.
        }

        _subscriptions.Remove(subscription);
    }

    private async Task<T> CallAsync<T>(Func<Task<T>> call, CancellationToken cancellationToken)
    {
        try
        {
            return await call().WaitAsync(cancellationToken);
        }
        catch (Exception exception) when (exception is CommunicationException or TimeoutException
            && WcfErrors.FromException(exception, _clientLimit) is var mapped && !ReferenceEquals(mapped, exception))
        {
            throw mapped;
        }
    }

    private async Task<IPushDuplexService> ChannelAsync(CancellationToken cancellationToken)
    {
        if (Volatile.Read(ref _channel) is { } opened)
        {
            return opened;
        }

        await _opening.WaitAsync(cancellationToken);
        try
        {
            ObjectDisposedException.ThrowIf(_disposing, this);
            if (_channel is { } raced)
            {
                return raced;
            }

            var channel = _factory.CreateChannel(new InstanceContext(new WcfPushCallback(_subscriptions)));
            var communication = (ICommunicationObject)channel;
            communication.Faulted += (_, _) => SessionEnded(channel, "faulted");
            communication.Closed += (_, _) => SessionEnded(channel, "was closed");
            try
            {
                await Task.Factory.FromAsync(communication.BeginOpen, communication.EndOpen, null).WaitAsync(cancellationToken);
            }
            catch
            {
                communication.Abort();
                throw;
            }

            Volatile.Write(ref _channel, channel);
            return channel;
        }
        finally
        {
            _opening.Release();
        }
    }

    /// <summary>
    /// The session ended: its subscriptions end with the reason, and the next subscribe or publish
    /// opens a new session instead of calling on the dead one.
    /// </summary>
    private void SessionEnded(IPushDuplexService channel, string how)
    {
        // Only the session in use ends the subscriptions, once: not one that failed to open (nothing
        // subscribed on it), nor the Closed event Abort() raises below for the one that faulted.
        if (Interlocked.CompareExchange(ref _channel, null, channel) != channel)
        {
            return;
        }

        ((ICommunicationObject)channel).Abort();
        _subscriptions.EndAll(
            _disposing ? null : $"The {_binding} push session to {_factory.Endpoint.Address.Uri} {how}: the server drops a subscriber that falls behind, or the connection broke.",
            cause: null);
    }
}
