using RpcCompare.Bindings.Push;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Bindings.Pipes.Push;

/// <summary>One topic on a <see cref="PipePushClient"/>'s connection.</summary>
internal sealed class PipePushSubscription : IPushSubscription
{
    private readonly PipePushClient _client;
    private readonly Action<Notification> _onNotification;
    private readonly TaskCompletionSource _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public PipePushSubscription(PipePushClient client, string topic, Action<Notification> onNotification)
    {
        _client = client;
        Topic = topic;
        _onNotification = onNotification;
    }

    public string Topic { get; }

    public Task Completion => _completion.Task;

    public ValueTask DisposeAsync() => _completion.Task.IsCompleted ? ValueTask.CompletedTask : new(_client.UnsubscribeAsync(this));

    internal void Deliver(Notification notification)
    {
        if (!_completion.Task.IsCompleted)
        {
            _onNotification(notification);
        }
    }

    internal void Unsubscribed() => _completion.TrySetResult();

    internal void Ended(string reason, Exception? cause) =>
        _completion.TrySetException(cause is null ? new PushSubscriptionEndedException(reason) : new PushSubscriptionEndedException(reason, cause));
}
