using System.Collections.Concurrent;
using System.Diagnostics.Metrics;

namespace RpcCompare.Bindings.Limits;

/// <summary>
/// Feeds each Kestrel-based binding's <see cref="ConnectionIncidents"/> from Kestrel's own
/// telemetry: every connection Kestrel ends is recorded in <c>kestrel.connection.duration</c>,
/// tagged with <c>error.type</c> when it ended badly (max_concurrent_connections_exceeded,
/// request_headers_timeout, keep_alive_timeout, invalid_request_line, ...) and with the local
/// endpoint, which tells the binding; and <c>kestrel.active_connections</c> (+1 and -1, tagged the
/// same way) gives each binding's connections open now. Kestrel also logs each refused connection as a warning; the
/// hosts filter that category (<see cref="KestrelLimits.QuietPerConnectionWarnings"/>) so the summary is the only line.
/// </summary>
/// <remarks>
/// One listener for the process: CoreWCF's Unix-socket transport builds its Kestrel server
/// without the application's meter factory, so telling the bindings apart by meter scope would
/// miss it; the endpoint tags are there on every server.
/// </remarks>
public static class KestrelIncidentWatch
{
    private const string KestrelMeter = "Microsoft.AspNetCore.Server.Kestrel";
    private const string ConnectionDuration = "kestrel.connection.duration";
    private const string ActiveConnections = "kestrel.active_connections";
    private static readonly ConcurrentDictionary<Watched, byte> s_watched = new();
    private static readonly Lazy<MeterListener> s_listener = new(Listen);

    /// <summary>
    /// Routes the ends of connections accepted on the endpoints <paramref name="owns"/> recognises
    /// (server.address, server.port: an IP address and port, or a Unix socket path and null) to
    /// <paramref name="incidents"/>, until the result is disposed.
    /// </summary>
    public static IDisposable Watch(Func<string?, int?, bool> owns, ConnectionIncidents incidents)
    {
        var watched = new Watched(owns, incidents);
        s_watched[watched] = 0;
        _ = s_listener.Value;
        return watched;
    }

    /// <summary>What an <c>error.type</c> of Kestrel's means for the client that caused it.</summary>
    public static ConnectionIncident Classify(string errorType) => errorType switch
    {
        "max_concurrent_connections_exceeded" => ConnectionIncident.Refused,
        "request_headers_timeout" or "min_request_body_data_rate" or "min_response_data_rate" or "server_timeout" => ConnectionIncident.Stalled,
        "keep_alive_timeout" => ConnectionIncident.Idle,
        "connection_reset" or "io_error" or "app_shutdown_timeout" or "aborted_by_app" or "write_canceled" or "error_after_starting_response" => ConnectionIncident.Dropped,
        _ => ConnectionIncident.Malformed,
    };

    private static MeterListener Listen()
    {
        var listener = new MeterListener
        {
            InstrumentPublished = static (instrument, listener) =>
            {
                if (instrument.Meter.Name == KestrelMeter && instrument.Name is ConnectionDuration or ActiveConnections)
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            },
        };
        listener.SetMeasurementEventCallback<double>(static (_, _, tags, _) => OnConnectionEnded(tags));
        listener.SetMeasurementEventCallback<long>(static (_, change, tags, _) => OnActiveChanged(change, tags));
        listener.Start();
        return listener;
    }

    private static void OnActiveChanged(long change, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        if (Owner(tags) is { } watched)
        {
            watched.ActiveChanged(change);
        }
    }

    private static void OnConnectionEnded(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        string? errorType = null;
        foreach (var (key, value) in tags)
        {
            if (key == "error.type")
            {
                errorType = value as string;
            }
        }

        if (errorType is not null && Owner(tags) is { } watched)
        {
            watched.Incidents.Add(Classify(errorType), errorType);
        }
    }

    // The binding serving the endpoint the tags name (server.address, server.port), if one is watched.
    private static Watched? Owner(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        string? address = null;
        int? port = null;
        foreach (var (key, value) in tags)
        {
            switch (key)
            {
                case "server.address":
                    address = value as string;
                    break;
                case "server.port":
                    port = value as int?;
                    break;
            }
        }

        // Enumerating the dictionary itself takes no lock (its Keys would, and copy them): this runs on every connection.
        foreach (var (watched, _) in s_watched)
        {
            if (watched.Owns(address, port))
            {
                return watched;
            }
        }

        return null;
    }

    // A class, not a record: each registration is its own, however alike two look.
    private sealed class Watched(Func<string?, int?, bool> owns, ConnectionIncidents incidents) : IDisposable
    {
        private long _open;

        public Func<string?, int?, bool> Owns { get; } = owns;

        public ConnectionIncidents Incidents { get; } = incidents;

        // A connection accepted before the watch began has no +1 here: its -1 is not passed on, so the count never goes below zero.
        public void ActiveChanged(long change)
        {
            if (change > 0)
            {
                Interlocked.Increment(ref _open);
                Incidents.Opened();
                return;
            }

            for (var open = Interlocked.Read(ref _open); open > 0; open = Interlocked.Read(ref _open))
            {
                if (Interlocked.CompareExchange(ref _open, open - 1, open) == open)
                {
                    Incidents.Closed();
                    return;
                }
            }
        }

        public void Dispose() => s_watched.TryRemove(this, out _);
    }
}
