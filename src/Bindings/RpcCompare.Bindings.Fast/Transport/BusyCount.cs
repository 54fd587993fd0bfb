namespace RpcCompare.Bindings.Fast.Transport;

/// <summary>
/// How many of one side's threads are doing work rather than waiting for a frame: the client's
/// calls in flight in the process, the server's connections handling a frame. A waiter spins only
/// when nothing else of its side is busy: with several clients on two cores, a spinner holds the
/// core another call needs, and the one whose spins keep succeeding is served while the others
/// wait (docs/measurements/fast-uds-spin-20261126.md: p99 2.1-2.4 ms at 16-64 clients).
/// </summary>
internal sealed class BusyCount
{
    private int _count;

    public int Count => Volatile.Read(ref _count);

    public void Enter() => Interlocked.Increment(ref _count);

    public void Leave() => Interlocked.Decrement(ref _count);
}
