using Grpc.Core;
using RpcCompare.Bindings.Push;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Bindings.Grpc.Push;

/// <summary>Reads one subscription's stream until it ends; cancelling the call unsubscribes.</summary>
internal sealed class GrpcPushSubscription : IPushSubscription
{
    private readonly CancellationTokenSource _stop;
    private int _disposed;

    public GrpcPushSubscription(string topic, IAsyncEnumerator<Notification> stream, CancellationTokenSource stop, Action<Notification> onNotification)
    {
        Topic = topic;
        _stop = stop;
        Completion = ReadAsync(stream, onNotification);
    }

    public string Topic { get; }

    public Task Completion { get; }

    // Once: the subscriber and its client's disposal may both unsubscribe.
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 1)
        {
            return;
        }

        await _stop.CancelAsync();
        try
        {
            await Completion;
        }
        catch (PushSubscriptionEndedException)
        {
            // Ended before we left; Completion still says why.
        }

        _stop.Dispose();
    }

    private async Task ReadAsync(IAsyncEnumerator<Notification> stream, Action<Notification> onNotification)
    {
        await Task.Yield();
        try
        {
            while (await stream.MoveNextAsync())
            {
                onNotification(stream.Current);
            }

            throw new PushSubscriptionEndedException($"The server closed the subscription to '{Topic}'.");
        }
        catch (Exception exception) when (_stop.IsCancellationRequested && exception is RpcException { StatusCode: StatusCode.Cancelled } or OperationCanceledException)
        {
            // Unsubscribed.
        }
        catch (RpcException exception)
        {
            throw new PushSubscriptionEndedException($"The subscription to '{Topic}' ended: {exception.Status.StatusCode}: {exception.Status.Detail}", exception);
        }
        finally
        {
            await stream.DisposeAsync();
        }
    }
}
