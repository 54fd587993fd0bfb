using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;
using Microsoft.Extensions.Logging;

namespace RpcCompare.Bindings.Limits;

/// <summary>
/// Counts the connections one binding refuses or closes, and logs them as one summary line per
/// interval instead of one line per connection: a flood of 12,000 bad connections once wrote
/// 24,000 warnings, so a client could flood the log as well as the listener. Every count also
/// goes to the <c>rpccompare.connection.incidents</c> counter (meter <see cref="MeterName"/>),
/// tagged with the binding and the kind; and the connections it serves now go to the
/// <c>rpccompare.connections.open</c> up-down counter (<see cref="Opened"/>, <see cref="Closed"/>).
/// </summary>
public sealed class ConnectionIncidents : IDisposable
{
    /// <summary>The meter the incident counter belongs to, for dotnet-counters or an OpenTelemetry exporter.</summary>
    public const string MeterName = "RpcCompare.Bindings";

    /// <summary>How often a binding with incidents writes its summary line.</summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromSeconds(10);

    private static readonly Meter s_meter = new(MeterName);
    private static readonly Counter<long> s_incidents = s_meter.CreateCounter<long>(
        "rpccompare.connection.incidents", "{connection}", "Connections a binding refused or closed because of how the client behaved.");

    private static readonly UpDownCounter<long> s_open = s_meter.CreateUpDownCounter<long>(
        "rpccompare.connections.open", "{connection}", "Connections a binding serves now: accepted and not yet closed, including those it answers with a refusal.");

    private readonly string _binding;
    private readonly string _limit;
    private readonly ILogger _logger;
    private readonly TimeProvider _time;
    private readonly ITimer _timer;
    private ConcurrentDictionary<(ConnectionIncident Kind, string Detail), long> _counts = new();
    private long _since;

    /// <param name="binding">The binding's name, as the log and the metric tag give it.</param>
    /// <param name="limit">How the connection limit reads in a refusal, e.g. "3,000 (WcfNetTcp:MaxConnections)".</param>
    /// <param name="logger">Where the summaries go.</param>
    /// <param name="interval">How often; <see cref="DefaultInterval"/> unless given.</param>
    /// <param name="time">The clock (a fake one in tests).</param>
    public ConnectionIncidents(string binding, string limit, ILogger logger, TimeSpan? interval = null, TimeProvider? time = null)
    {
        _binding = binding;
        _limit = limit;
        _logger = logger;
        _time = time ?? TimeProvider.System;
        _since = _time.GetTimestamp();
        var period = interval ?? DefaultInterval;
        _timer = _time.CreateTimer(static state => ((ConnectionIncidents)state!).Flush(), this, period, period);
    }

    /// <summary>Counts one connection; <paramref name="detail"/> says what exactly (a framework's reason, e.g. request_headers_timeout).</summary>
    public void Add(ConnectionIncident kind, string detail)
    {
        _counts.AddOrUpdate((kind, detail), 1, static (_, count) => count + 1);
        s_incidents.Add(1, new KeyValuePair<string, object?>("rpc.binding", _binding), new KeyValuePair<string, object?>("kind", Name(kind)));
    }

    /// <summary>A connection was accepted: one more open (for the metric; nothing is logged).</summary>
    public void Opened() => s_open.Add(1, new KeyValuePair<string, object?>("rpc.binding", _binding));

    /// <summary>A connection <see cref="Opened"/> has closed.</summary>
    public void Closed() => s_open.Add(-1, new KeyValuePair<string, object?>("rpc.binding", _binding));

    /// <summary>Writes the summary of what was counted since the last one, if anything was.</summary>
    public void Flush()
    {
        var counts = Interlocked.Exchange(ref _counts, new ConcurrentDictionary<(ConnectionIncident Kind, string Detail), long>());
        var now = _time.GetTimestamp();
        var seconds = _time.GetElapsedTime(Interlocked.Exchange(ref _since, now), now).TotalSeconds;
        if (counts.IsEmpty)
        {
            return;
        }

        var summary = Summarize(counts);
        // Idle and dropped connections are how clients come and go; the rest is a client misbehaving.
        if (counts.Keys.Any(static k => k.Kind is not (ConnectionIncident.Idle or ConnectionIncident.Dropped)))
        {
            ConnectionIncidentsLog.Misbehaving(_logger, _binding, Math.Round(seconds), summary);
        }
        else
        {
            ConnectionIncidentsLog.Routine(_logger, _binding, Math.Round(seconds), summary);
        }
    }

    /// <summary>Writes what is left, then stops the timer.</summary>
    public void Dispose()
    {
        _timer.Dispose();
        Flush();
    }

    // "refused 1,500 connections past its limit of 3,000 (WcfNetTcp:MaxConnections); closed 3 stalled (request_headers_timeout: 2, preamble: 1)"
    private string Summarize(IReadOnlyDictionary<(ConnectionIncident Kind, string Detail), long> counts)
    {
        var text = new StringBuilder();
        foreach (var kind in counts.Keys.Select(static k => k.Kind).Distinct().Order())
        {
            var details = counts.Where(c => c.Key.Kind == kind).OrderByDescending(static c => c.Value).ThenBy(static c => c.Key.Detail, StringComparer.Ordinal).ToList();
            var total = details.Sum(static c => c.Value);
            var connections = total == 1 ? "connection" : "connections";
            text.Append(text.Length == 0 ? "" : "; ").Append(kind switch
            {
                ConnectionIncident.Refused => string.Create(CultureInfo.InvariantCulture, $"refused {total:#,0} {connections} past its limit of {_limit}"),
                ConnectionIncident.Unauthorized => string.Create(CultureInfo.InvariantCulture, $"refused {total:#,0} {connections} from users it does not serve"),
                _ => string.Create(CultureInfo.InvariantCulture, $"closed {total:#,0} {Name(kind)}"),
            });
            text.Append(" (").AppendJoin(", ", details.Select(static c => string.Create(CultureInfo.InvariantCulture, $"{c.Key.Detail}: {c.Value:#,0}"))).Append(')');
        }

        return text.ToString();
    }

    private static string Name(ConnectionIncident kind) => kind switch
    {
        ConnectionIncident.Refused => "refused",
        ConnectionIncident.Unauthorized => "unauthorized",
        ConnectionIncident.Stalled => "stalled",
        ConnectionIncident.Malformed => "malformed",
        ConnectionIncident.Idle => "idle",
        _ => "dropped",
    };
}

internal static partial class ConnectionIncidentsLog
{
    [LoggerMessage(1, LogLevel.Warning, "Binding {Binding}, last {Seconds} s: {Summary}")]
    public static partial void Misbehaving(ILogger logger, string binding, double seconds, string summary);

    [LoggerMessage(2, LogLevel.Debug, "Binding {Binding}, last {Seconds} s: {Summary}")]
    public static partial void Routine(ILogger logger, string binding, double seconds, string summary);
}
