using Grpc.Core;
using Grpc.Core.Interceptors;
using Grpc.Net.Client;
using ProtoBuf.Grpc.Client;
using RpcCompare.Bindings.Grpc.Client;
using RpcCompare.Bindings.Push;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Grpc.Push;

/// <summary>A push client on a GrpcChannel: its subscriptions are streams on that channel's connection.</summary>
internal sealed class GrpcPushClient : IPushClient
{
    private readonly Action _closeChannel;
    private readonly IPushService _service;
    private readonly int _clientLimit;
    private readonly List<GrpcPushSubscription> _subscriptions = [];
    private int _disposed;

    /// <param name="channel">The channel whose connection carries the subscriptions.</param>
    /// <param name="clientLimit">The largest message, for the error a refusal maps to.</param>
    /// <param name="closeChannel">Disposes the channel, or releases this client's share of a shared one.</param>
    public GrpcPushClient(GrpcChannel channel, int clientLimit, Action closeChannel)
    {
        _closeChannel = closeChannel;
        _clientLimit = clientLimit;
        _service = channel.Intercept(new RpcErrorClientInterceptor(clientLimit)).CreateGrpcService<IPushService>();
    }

    public async Task<IPushSubscription> SubscribeAsync(string topic, Action<Notification> onNotification, long? after = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(onNotification);
        var stop = new CancellationTokenSource();
        var stream = _service.SubscribeAsync(new SubscribeRequest { Topic = topic, After = after }, stop.Token).GetAsyncEnumerator(stop.Token);
        try
        {
            // The server's first message (sequence 0) says the subscription is registered.
            using (cancellationToken.Register(stop.Cancel))
            {
                if (!await stream.MoveNextAsync() || stream.Current.Sequence != 0)
                {
                    throw new PushSubscriptionEndedException($"The server ended the subscription to '{topic}' before confirming it.");
                }
            }

            // Confirmed just as the caller gave up: the call is already cancelled, so hand back nothing.
            if (stop.IsCancellationRequested)
            {
                throw new OperationCanceledException(cancellationToken);
            }
        }
        catch (Exception exception) when (exception is RpcException or OperationCanceledException)
        {
            await stream.DisposeAsync();
            stop.Dispose();
            cancellationToken.ThrowIfCancellationRequested();
            if (exception is RpcException rpc)
            {
                throw GrpcErrors.FromRpcException(rpc, _clientLimit);
            }

            throw;
        }

        var subscription = new GrpcPushSubscription(topic, stream, stop, onNotification);
        lock (_subscriptions)
        {
            _subscriptions.RemoveAll(s => s.Completion.IsCompleted);
            _subscriptions.Add(subscription);
        }

        return subscription;
    }

    public Task<PublishReply> PublishAsync(Notification notification, CancellationToken cancellationToken = default) =>
        _service.PublishAsync(NotificationTrace.WithCallersTrace(notification)).WaitAsync(cancellationToken);

    public async ValueTask DisposeAsync()
    {
        // Once: a shared channel counts its clients, and a second release would close it under the others.
        if (Interlocked.Exchange(ref _disposed, 1) == 1)
        {
            return;
        }

        // Unsubscribes what is still streaming (so each subscription completes as left, not as
        // ended by the server), then closes the connection (a shared one once its last client goes).
        List<GrpcPushSubscription> open;
        lock (_subscriptions)
        {
            open = [.. _subscriptions];
            _subscriptions.Clear();
        }

        await Task.WhenAll(open.Select(s => s.DisposeAsync().AsTask()));
        _closeChannel();
    }
}
