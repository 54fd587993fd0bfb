using RpcCompare.Contracts.Push;

namespace RpcCompare.Client.Tests.Push;

/// <summary>What one test subscriber received, in arrival order; a test awaits a count.</summary>
internal sealed class ReceivedNotifications
{
    private readonly Lock _lock = new();
    private readonly List<long> _sequences = [];
    private TaskCompletionSource _reached = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _awaited = int.MaxValue;

    public IReadOnlyList<long> Sequences
    {
        get
        {
            lock (_lock)
            {
                return [.. _sequences];
            }
        }
    }

    public void Add(Notification notification)
    {
        lock (_lock)
        {
            _sequences.Add(notification.Sequence);
            if (_sequences.Count >= _awaited)
            {
                _reached.TrySetResult();
            }
        }
    }

    /// <summary>Completes once <paramref name="count"/> notifications arrived.</summary>
    public Task CountAsync(int count)
    {
        lock (_lock)
        {
            _awaited = count;
            _reached = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            if (_sequences.Count >= count)
            {
                _reached.TrySetResult();
            }

            return _reached.Task;
        }
    }
}
