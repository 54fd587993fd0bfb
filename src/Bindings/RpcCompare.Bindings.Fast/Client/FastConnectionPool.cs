using System.Diagnostics.CodeAnalysis;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// A client's connections to one server address. A synchronous call takes an idle connection (or
/// opens one) and gives it back when it is done, so concurrent callers each have one and
/// sequential ones reuse the last (most recently used first, the one least likely to have been
/// closed for idleness). Asynchronous calls share one <see cref="MultiplexedConnection"/>.
/// </summary>
internal sealed class FastConnectionPool : IDisposable
{
    // Under its own lock, not a ConcurrentStack: that allocates a node per push, 32 B per synchronous call,
    // which was 40% of what such a call allocated (the allocation goal is 64 B per round trip on each side).
    private readonly Stack<FastClientConnection> _idle = new();
    private readonly Lock _idleLock = new();
    private readonly FastEndpoint _address;
    private readonly Lock _multiplexedLock = new();
    private MultiplexedConnection? _multiplexed;
    private volatile bool _disposed;

    public FastConnectionPool(FastEndpoint address, FastClientOptions options)
    {
        _address = address;
        Options = options;
    }

    /// <summary>Calls started and not yet over, in every pool of the process: a rented connection, a multiplexed call waiting for its answer.</summary>
    public static BusyCount CallsInFlight { get; } = new();

    public FastClientOptions Options { get; }

    public FastClientConnection Rent()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        var connection = TakeIdle() ?? FastClientConnection.Connect(_address, Options);
        CallsInFlight.Enter();
        return connection;
    }

    public void Return(FastClientConnection connection)
    {
        CallsInFlight.Leave();
        lock (_idleLock)
        {
            // Under the lock: a pool disposed meanwhile has emptied its stack for the last time.
            if (!connection.IsBroken && !_disposed)
            {
                _idle.Push(connection);
                return;
            }
        }

        connection.Dispose();
    }

    /// <summary>Whether a Task form's call goes on the multiplexed connection: unless the options say otherwise, or it is streamed (a stream holds a connection of its own).</summary>
    public bool Multiplexes(bool streamed) => !streamed && Options.TaskCalls == FastTaskCalls.Multiplexed;

    /// <summary>
    /// One blocking call on a connection of the pool, on the caller's thread: the reply (default for a
    /// one-way call) or the server's error, thrown. A Stream reply keeps its connection until the caller
    /// has read it (<see cref="ReplyStream"/> gives it back); any other call returns it at once.
    /// </summary>
    public TReply Call<TRequest, TReply>(FastContract contract, int operation, OperationDescription description, TRequest request,
        bool streamIn, bool streamOut, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        var connection = Rent();
        var handedOver = false;
        try
        {
            var reply = connection.Call<TRequest, TReply>(contract, operation, description, request, streamIn, streamOut, this, cancellationToken);
            handedOver = streamOut;
            return reply;
        }
        finally
        {
            if (!handedOver)
            {
                Return(connection);
            }
        }
    }

    /// <summary>The connection asynchronous calls share: the current one, or a new one if it failed or the server closed it (looked at once it has been idle for <see cref="FastClientOptions.IdleCheckAfter"/>).</summary>
    public MultiplexedConnection Multiplexed()
    {
        var current = _multiplexed;
        if (current is { IsBroken: false } && !current.ClosedWhileIdle(Options.IdleCheckAfter))
        {
            return current;
        }

        lock (_multiplexedLock)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_multiplexed is { IsBroken: false } other && !other.ClosedWhileIdle(Options.IdleCheckAfter))
            {
                return other;
            }

            // A connection whose send failed keeps reading the server's last answer for a while: retired, not disposed.
            _multiplexed?.Retire();
            return _multiplexed = MultiplexedConnection.Connect(_address, Options);
        }
    }

    /// <summary>Closes the idle connections and the multiplexed one (its waiting calls fail); a rented connection closes when returned.</summary>
    public void Dispose()
    {
        lock (_idleLock)
        {
            _disposed = true;
        }

        while (TryPopIdle(out var connection))
        {
            connection.Dispose();
        }

        lock (_multiplexedLock)
        {
            _multiplexed?.Dispose();
        }
    }

    private bool TryPopIdle([NotNullWhen(true)] out FastClientConnection? connection)
    {
        lock (_idleLock)
        {
            return _idle.TryPop(out connection);
        }
    }

    private FastClientConnection? TakeIdle()
    {
        while (TryPopIdle(out var connection))
        {
            if (Environment.TickCount64 - connection.LastUsed >= Options.IdleCheckAfter.TotalMilliseconds && connection.ClosedWhileIdle())
            {
                connection.Dispose();
                continue;
            }

            return connection;
        }

        return null;
    }
}
