using System.Diagnostics.Metrics;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Time.Testing;
using RpcCompare.Bindings.Limits;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Tests.Limits;

public sealed class ConnectionIncidentsTests
{
    private readonly FakeTimeProvider _time = new();
    private readonly CapturedLog _log = new(LogLevel.Debug);

    [Fact]
    public void AFloodOfRefusals_IsOneLinePerInterval_WithTheCountsAndTheLimit()
    {
        using var incidents = Create();
        for (var i = 0; i < 1_500; i++)
        {
            incidents.Add(ConnectionIncident.Refused, "max_concurrent_connections_exceeded");
        }

        incidents.Add(ConnectionIncident.Stalled, "request_headers_timeout");
        incidents.Add(ConnectionIncident.Stalled, "request_headers_timeout");
        incidents.Add(ConnectionIncident.Stalled, "preface timeout");
        Assert.Empty(_log.Lines);

        _time.Advance(TimeSpan.FromSeconds(10));

        Assert.Equal(["Warning test: Binding wcf-nettcp, last 10 s: refused 1,500 connections past its limit of 3,000 (WcfNetTcp:MaxConnections) (max_concurrent_connections_exceeded: 1,500); "
            + "closed 3 stalled (request_headers_timeout: 2, preface timeout: 1)"], _log.Lines);
    }

    [Fact]
    public void UsersNotServed_AreOneWarning_NamingEachUid()
    {
        using var incidents = Create();
        incidents.Add(ConnectionIncident.Unauthorized, "uid 65534");
        incidents.Add(ConnectionIncident.Unauthorized, "uid 65534");
        incidents.Add(ConnectionIncident.Unauthorized, "uid 1001");
        incidents.Add(ConnectionIncident.Refused, "max_concurrent_connections_exceeded");

        _time.Advance(TimeSpan.FromSeconds(10));

        Assert.Equal(["Warning test: Binding wcf-nettcp, last 10 s: refused 1 connection past its limit of 3,000 (WcfNetTcp:MaxConnections) (max_concurrent_connections_exceeded: 1); "
            + "refused 3 connections from users it does not serve (uid 65534: 2, uid 1001: 1)"], _log.Lines);
    }

    [Fact]
    public void AnIntervalWithNothing_WritesNothing_AndTheNextCountsOnlyItsOwn()
    {
        using var incidents = Create();
        incidents.Add(ConnectionIncident.Malformed, "invalid_request_line");
        _time.Advance(TimeSpan.FromSeconds(10));
        _time.Advance(TimeSpan.FromSeconds(10));
        incidents.Add(ConnectionIncident.Refused, "max_concurrent_connections_exceeded");
        _time.Advance(TimeSpan.FromSeconds(10));

        Assert.Equal(
        [
            "Warning test: Binding wcf-nettcp, last 10 s: closed 1 malformed (invalid_request_line: 1)",
            "Warning test: Binding wcf-nettcp, last 10 s: refused 1 connection past its limit of 3,000 (WcfNetTcp:MaxConnections) (max_concurrent_connections_exceeded: 1)",
        ], _log.Lines);
    }

    [Fact]
    public void IdleAndDroppedConnections_AreRoutine_LoggedAtDebugOnly()
    {
        using var incidents = Create();
        incidents.Add(ConnectionIncident.Idle, "keep_alive_timeout");
        incidents.Add(ConnectionIncident.Dropped, "connection_reset");
        _time.Advance(TimeSpan.FromSeconds(10));

        Assert.Equal(["Debug test: Binding wcf-nettcp, last 10 s: closed 1 idle (keep_alive_timeout: 1); closed 1 dropped (connection_reset: 1)"], _log.Lines);
    }

    [Fact]
    public void Disposing_WritesWhatIsLeft_AndStopsTheTimer()
    {
        var incidents = Create();
        incidents.Add(ConnectionIncident.Stalled, "CoreWCF framing timeout");
        _time.Advance(TimeSpan.FromSeconds(4));

        incidents.Dispose();
        incidents.Add(ConnectionIncident.Stalled, "after");
        _time.Advance(TimeSpan.FromSeconds(60));

        Assert.Equal(["Warning test: Binding wcf-nettcp, last 4 s: closed 1 stalled (CoreWCF framing timeout: 1)"], _log.Lines);
    }

    [Fact]
    public void EveryIncident_GoesToTheCounter_TaggedWithBindingAndKind()
    {
        var measured = new List<(long Value, string? Binding, string? Kind)>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == ConnectionIncidents.MeterName)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, value, tags, _) =>
        {
            string? binding = null, kind = null;
            foreach (var (key, tag) in tags)
            {
                (binding, kind) = key switch { "rpc.binding" => ((string?)tag, kind), "kind" => (binding, (string?)tag), _ => (binding, kind) };
            }

            lock (measured)
            {
                // Other tests' instances count too: keep this binding's only.
                if (binding == "counted-binding")
                {
                    measured.Add((value, binding, kind));
                }
            }
        });
        listener.Start();
        using var incidents = new ConnectionIncidents("counted-binding", "1", _log.CreateLogger("test"), time: _time);

        incidents.Add(ConnectionIncident.Refused, "x");
        incidents.Add(ConnectionIncident.Malformed, "y");

        Assert.Equal([(1L, "counted-binding", "refused"), (1L, "counted-binding", "malformed")], measured);
    }

    [Theory]
    [InlineData("max_concurrent_connections_exceeded", ConnectionIncident.Refused)]
    [InlineData("request_headers_timeout", ConnectionIncident.Stalled)]
    [InlineData("min_request_body_data_rate", ConnectionIncident.Stalled)]
    [InlineData("keep_alive_timeout", ConnectionIncident.Idle)]
    [InlineData("connection_reset", ConnectionIncident.Dropped)]
    [InlineData("invalid_request_line", ConnectionIncident.Malformed)]
    [InlineData("invalid_handshake", ConnectionIncident.Malformed)]
    [InlineData("System.NullReferenceException", ConnectionIncident.Malformed)]
    public void KestrelsErrorTypes_AreClassifiedByWhatTheClientDid(string errorType, ConnectionIncident expected)
    {
        Assert.Equal(expected, KestrelIncidentWatch.Classify(errorType));
    }

    private ConnectionIncidents Create() =>
        new("wcf-nettcp", "3,000 (WcfNetTcp:MaxConnections)", _log.CreateLogger("test"), TimeSpan.FromSeconds(10), _time);
}
