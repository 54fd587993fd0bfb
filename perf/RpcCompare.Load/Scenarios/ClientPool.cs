using System.Collections.Concurrent;
using System.Diagnostics;
using RpcCompare.Client;

namespace RpcCompare.Load.Scenarios;

/// <summary>
/// Connected clients for one scenario, one per call in flight: a call rents a client, and returns
/// it when the call succeeded. The closed model needs as many clients as users; the open model as
/// many as calls overlap, so the pool grows on demand. A client whose call failed is closed rather
/// than reused (its connection may be broken).
/// </summary>
/// <remarks>
/// Two bounds keep an overloaded binding from taking the load generator down with it: a call that
/// has no reply after <see cref="CallTimeout"/> fails with a TimeoutException, and at most
/// <see cref="MaxConnections"/> calls are in flight, a call past that fails at once. Without them a
/// WCF NetTcp step at 32,000/s left the load process with 541 threads and no progress for minutes
/// (each new WCF channel opens synchronously on a pool thread).
/// </remarks>
internal sealed class ClientPool : IAsyncDisposable
{
    public const int MaxConnections = 2_048;

    public static TimeSpan CallTimeout { get; } = TimeSpan.FromSeconds(10);

    private readonly RpcClientFactory _factory;
    private readonly string _binding;
    private readonly string _address;
    private readonly LoadOperation _operation;
    private readonly ConcurrentBag<Client> _idle = [];
    private readonly ConcurrentBag<Client> _all = [];
    private int _open;

    public ClientPool(RpcClientFactory factory, string binding, string address, LoadOperation operation)
    {
        _factory = factory;
        _binding = binding;
        _address = address;
        _operation = operation;
    }

    /// <summary>Connected clients so far: the most calls that overlapped.</summary>
    public int Created => _all.Count;

    /// <summary>Makes one call on an idle client (or a new one); throws what the call threw.</summary>
    public async Task CallAsync()
    {
        if (!_idle.TryTake(out var client))
        {
            if (Interlocked.Increment(ref _open) > MaxConnections)
            {
                Interlocked.Decrement(ref _open);
                throw new InvalidOperationException($"{MaxConnections:#,0} calls are already in flight on {_binding}: it is not keeping up with this load.");
            }

            client = new Client(new RpcClientSession(_factory, _binding, _address), _operation);
            _all.Add(client);
        }

        try
        {
            await client.Call().WaitAsync(CallTimeout);
        }
        catch (Exception exception)
        {
            // Closing the session also abandons a call that timed out.
            Interlocked.Decrement(ref _open);
            await client.Session.DisposeAsync();
            if (exception is TimeoutException)
            {
                throw new TimeoutException($"No reply from {_binding} within {CallTimeout.TotalSeconds:0} s.", exception);
            }

            throw;
        }

        _idle.Add(client);
    }

    /// <summary>
    /// Connects clients until the pool holds <paramref name="count"/>, each making one unmeasured
    /// call, so a measured step does not open connections (and time their set-up) as its calls overlap.
    /// </summary>
    public async Task GrowToAsync(int count)
    {
        var missing = Math.Min(count, MaxConnections) - Volatile.Read(ref _open);
        if (missing <= 0)
        {
            return;
        }

        var opened = new List<Client>();
        for (var i = 0; i < missing; i++)
        {
            if (Interlocked.Increment(ref _open) > MaxConnections)
            {
                Interlocked.Decrement(ref _open);
                break;
            }

            var client = new Client(new RpcClientSession(_factory, _binding, _address), _operation);
            _all.Add(client);
            opened.Add(client);
        }

        // A few at a time: opening hundreds at once would measure the listener's backlog instead.
        foreach (var batch in opened.Chunk(16))
        {
            await Task.WhenAll(batch.Select(async client =>
            {
                try
                {
                    await client.Call().WaitAsync(CallTimeout);
                    _idle.Add(client);
                }
                catch (Exception exception) when (exception is not OutOfMemoryException)
                {
                    // The measured step makes the same calls and reports the failure.
                    Interlocked.Decrement(ref _open);
                    await client.Session.DisposeAsync();
                }
            }));
        }
    }

    /// <summary>
    /// Unmeasured calls from <paramref name="concurrency"/> closed loops until <paramref name="duration"/>
    /// has passed: connections opened, code paths compiled. A failing call ends its loop; the measured
    /// part, which makes the same calls, reports the failure.
    /// </summary>
    /// <param name="concurrency">Closed loops, each on its own client.</param>
    /// <param name="duration">How long the loops call; zero for no warm-up.</param>
    /// <param name="atLeastOneCall">Every loop makes one call even when <paramref name="duration"/> is zero or ends first.</param>
    public async Task WarmUpAsync(int concurrency, TimeSpan duration, bool atLeastOneCall = false)
    {
        if (duration <= TimeSpan.Zero && !atLeastOneCall)
        {
            return;
        }

        var deadline = Stopwatch.GetTimestamp() + (long)(Math.Max(0, duration.TotalSeconds) * Stopwatch.Frequency);
        await Task.WhenAll(Enumerable.Range(0, concurrency).Select(async _ =>
        {
            await Task.Yield();
            try
            {
                var first = atLeastOneCall;
                while (first || Stopwatch.GetTimestamp() < deadline)
                {
                    first = false;
                    await CallAsync();
                }
            }
            catch (Exception exception) when (exception is not OutOfMemoryException)
            {
                // Reported by the measured part.
            }
        }));
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var client in _all)
        {
            await client.Session.DisposeAsync();
        }
    }

    private sealed class Client(RpcClientSession session, LoadOperation operation)
    {
        public RpcClientSession Session { get; } = session;

        public Func<Task> Call { get; } = operation.CreateCall(session);
    }
}
