using RpcCompare.Bindings.Limits;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>
/// The connection threads of every fast server in the process (fast-tcp and fast-uds, each with its own
/// connection limit), counted against one budget: the process's task limit less the host's reserve
/// (<see cref="TaskLimit"/>). Each binding's own limit could otherwise be within the budget while the
/// two together pass it, and a process that cannot start a thread soon cannot run its thread pool either.
/// </summary>
internal static class ConnectionThreads
{
    private static int s_running;

    /// <summary>The task limit read at start-up; null where none is set.</summary>
    public static TaskLimit.Reading? Limit { get; } = TaskLimit.Read();

    /// <summary>Connection threads the process may run at once.</summary>
    public static int Capacity { get; } = TaskLimit.ConnectionsWithAThreadEach(Limit?.Tasks);

    /// <summary>Takes a place for one connection thread; false when every place is taken.</summary>
    public static bool TryTake()
    {
        if (Interlocked.Increment(ref s_running) <= Capacity)
        {
            return true;
        }

        Interlocked.Decrement(ref s_running);
        return false;
    }

    /// <summary>Gives back a place <see cref="TryTake"/> took, once its thread has ended or failed to start.</summary>
    public static void Release() => Interlocked.Decrement(ref s_running);
}
