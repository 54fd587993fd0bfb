using System.Diagnostics;
using System.Net.Sockets;

namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>
/// A bounded spin before a blocking receive. On a VM, a thread blocked in <c>recv</c> and woken by
/// the other process costs a wake-up per hop (stage 0: the blocking C ping-pong fell below the
/// thread pool's raw pipe, whose workers spin before they sleep); polling the socket for a few
/// microseconds first catches an answer that is on its way without sleeping at all.
/// </summary>
/// <remarks>
/// Polls with <see cref="Socket.Available"/> (one <c>ioctl(FIONREAD)</c>), which leaves the socket
/// blocking: switching it to non-blocking and back would cost two <c>fcntl</c> calls per wait.
/// At most <see cref="MaxSpinners"/> threads of the process spin at once, the rest block at
/// once, so a server with a thread per connection never has more spinning threads than half the
/// cores, whatever its connection count. A spinner holds a core other threads may need (the
/// other side's, a continuation's): see <see cref="SpinBackoff"/> for when a wait stops trying.
/// </remarks>
internal static class SpinBeforeBlocking
{
    /// <summary>Threads of this process that may spin at the same time: half the cores, at least one.</summary>
    public static readonly int MaxSpinners = Math.Max(1, Environment.ProcessorCount / 2);

    private static int s_spinning;
    private static long s_started;
    private static long s_declined;

    /// <summary>Threads spinning right now (for tests).</summary>
    internal static int Spinning => Volatile.Read(ref s_spinning);

    /// <summary>Spins started since the process began (for tests: a wait that must not spin leaves it unchanged, whenever one looks).</summary>
    internal static long Started => Interlocked.Read(ref s_started);

    /// <summary>Waits whose owner said not to spin because other work of its side was busy (for tests: proof a waiter reached its wait and blocked).</summary>
    internal static long Declined => Interlocked.Read(ref s_declined);

    /// <summary>Counts a wait that blocked at once because its owner's work needed the cores (only on that path: off the one-call hot path).</summary>
    public static void Decline() => Interlocked.Increment(ref s_declined);

    /// <summary>Stopwatch ticks of <paramref name="spin"/>; 0 for none.</summary>
    public static long Ticks(TimeSpan spin) => spin <= TimeSpan.Zero ? 0 : (long)(spin.TotalSeconds * Stopwatch.Frequency);

    /// <summary>
    /// Waits up to <paramref name="budgetTicks"/> for bytes to arrive on <paramref name="socket"/>,
    /// without sleeping; true as soon as some have. False when the budget ran out, when too many
    /// threads spin already, or with no budget: the caller then blocks in its receive as before.
    /// </summary>
    public static bool TryWaitForData(Socket socket, long budgetTicks)
    {
        if (budgetTicks <= 0)
        {
            return false;
        }

        if (Interlocked.Increment(ref s_spinning) > MaxSpinners)
        {
            Interlocked.Decrement(ref s_spinning);
            return false;
        }

        Interlocked.Increment(ref s_started);
        try
        {
            var deadline = Stopwatch.GetTimestamp() + budgetTicks;
            do
            {
                if (socket.Available > 0)
                {
                    return true;
                }

                // A pause between polls leaves the core's other hyperthread (and the VM) some room.
                Thread.SpinWait(10);
            }
            while (Stopwatch.GetTimestamp() < deadline);

            return false;
        }
        finally
        {
            Interlocked.Decrement(ref s_spinning);
        }
    }
}

/// <summary>
/// One waiter's record of its spins: a spin that ran out its budget means the answer was not on
/// its way, or that the spinning itself kept the other side off the cores (several clients on two
/// cores); either way the next waits skip the spin, twice as many after each failure in a row (up
/// to <see cref="MaxSkipped"/>), and a spin that succeeds resets it. Used by one thread at a time.
/// </summary>
internal struct SpinBackoff
{
    /// <summary>The most waits skipped after failures in a row.</summary>
    public const int MaxSkipped = 64;

    private int _skipping;
    private int _afterNextFailure;

    /// <summary>Whether this wait may spin; counts a skipped one.</summary>
    public bool ShouldSpin()
    {
        if (_skipping == 0)
        {
            return true;
        }

        _skipping--;
        return false;
    }

    /// <summary>How the spin this wait made ended.</summary>
    public void Record(bool dataArrived)
    {
        if (dataArrived)
        {
            _afterNextFailure = 0;
            return;
        }

        _afterNextFailure = _afterNextFailure == 0 ? 1 : Math.Min(2 * _afterNextFailure, MaxSkipped);
        _skipping = _afterNextFailure;
    }
}
