using Microsoft.AspNetCore.Connections;

namespace RpcCompare.Bindings.Limits;

/// <summary>
/// One connection limit across several listeners of one binding. Kestrel's own limit
/// (MaxConcurrentConnections) counts per server, and a binding served by one Kestrel server per
/// socket (CoreWCF's Unix-socket transport, one socket per contract) would otherwise either split
/// its limit among the sockets (a flood of one contract then refused at a ninth of it) or let the
/// sockets together pass it. A connection past the limit is closed at once and counted as refused.
/// </summary>
public sealed class SharedConnectionLimit(int limit, ConnectionIncidents incidents)
{
    private int _open;

    /// <summary>Connections being served now.</summary>
    public int Open => Volatile.Read(ref _open);

    /// <summary>Adds the limit to a listener's connection pipeline (outermost, so a refused connection costs nothing else).</summary>
    public void AddTo(IConnectionBuilder listener)
    {
        ArgumentNullException.ThrowIfNull(listener);
        listener.Use(next => async connection =>
        {
            if (Interlocked.Increment(ref _open) > limit)
            {
                Interlocked.Decrement(ref _open);
                incidents.Add(ConnectionIncident.Refused, "max_concurrent_connections_exceeded");
                return; // Returning ends the connection: Kestrel closes it.
            }

            try
            {
                await next(connection);
            }
            finally
            {
                Interlocked.Decrement(ref _open);
            }
        });
    }
}
