using System.Collections.Concurrent;
using RpcCompare.Bindings.Fast.Transport;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// The connections to one server address: a call takes an idle one (or opens one) and gives it
/// back when it is done, so concurrent callers each have a connection and sequential ones reuse
/// the last (most recently used first, the one least likely to have been closed for idleness).
/// </summary>
internal sealed class FastConnectionPool
{
    // By the options' values, not the instance: every factory makes its own options, and pools are never dropped.
    private static readonly ConcurrentDictionary<(string Address, int MaxMessageSize, TimeSpan IdleCheckAfter, TimeSpan SpinWait, TimeSpan CallTimeout), FastConnectionPool> Pools = new();
    private readonly ConcurrentStack<FastClientConnection> _idle = new();
    private readonly string _address;
    private readonly FastClientOptions _options;

    private FastConnectionPool(string address, FastClientOptions options)
    {
        _address = address;
        _options = options;
    }

    public static FastConnectionPool For(string address, FastClientOptions options) =>
        Pools.GetOrAdd((address, options.MaxMessageSize, options.IdleCheckAfter, options.SpinWait, options.CallTimeout), static key =>
            new FastConnectionPool(key.Address, new FastClientOptions
            {
                MaxMessageSize = key.MaxMessageSize, IdleCheckAfter = key.IdleCheckAfter, SpinWait = key.SpinWait, CallTimeout = key.CallTimeout,
            }));

    /// <summary>Connections rented and not yet returned, in every pool of the process: the calls in flight.</summary>
    public static BusyCount CallsInFlight { get; } = new();

    public FastClientConnection Rent()
    {
        var connection = TakeIdle() ?? FastClientConnection.Connect(_address, _options);
        CallsInFlight.Enter();
        return connection;
    }

    public void Return(FastClientConnection connection)
    {
        CallsInFlight.Leave();
        if (connection.IsBroken)
        {
            connection.Dispose();
            return;
        }

        _idle.Push(connection);
    }

    private FastClientConnection? TakeIdle()
    {
        while (_idle.TryPop(out var connection))
        {
            if (Environment.TickCount64 - connection.LastUsed >= _options.IdleCheckAfter.TotalMilliseconds && connection.ClosedWhileIdle())
            {
                connection.Dispose();
                continue;
            }

            return connection;
        }

        return null;
    }
}
