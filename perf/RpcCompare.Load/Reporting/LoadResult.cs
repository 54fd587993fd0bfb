using System.Text.Json.Serialization;
using NBomber.Contracts.Stats;
using RpcCompare.Load.Scenarios;

namespace RpcCompare.Load.Reporting;

/// <summary>Latency of the successful calls, in milliseconds, as NBomber measured it.</summary>
internal sealed record LatencyFigures(double Mean, double P50, double P75, double P95, double P99, double Max)
{
    public static LatencyFigures From(LatencyStats latency) =>
        new(latency.MeanMs, latency.Percent50, latency.Percent75, latency.Percent95, latency.Percent99, latency.MaxMs);
}

/// <summary>One NBomber scenario: a binding under one model calling one operation.</summary>
/// <param name="Binding">The binding loaded.</param>
/// <param name="Operation">The operation called (see LoadOperation).</param>
/// <param name="Model">closed or open.</param>
/// <param name="Load">The model with its users or rate, in words.</param>
/// <param name="Ok">Calls that succeeded in the measured part (NBomber's count).</param>
/// <param name="Failed">Calls that failed in the measured part.</param>
/// <param name="RequestsPerSecond">Successful calls per second (NBomber's RPS).</param>
/// <param name="Latency">Latency of the successful calls.</param>
/// <param name="Bytes">Bytes the successful calls carried, request and reply, as the scenario reported them.</param>
/// <param name="Connections">Clients the scenario connected: the most calls that overlapped.</param>
/// <param name="FirstError">The first failed call's error, or null.</param>
/// <param name="ReportFiles">NBomber's own reports of this scenario.</param>
internal sealed record LoadResult(
    string Binding,
    string Operation,
    string Model,
    string Load,
    long Ok,
    long Failed,
    double RequestsPerSecond,
    LatencyFigures Latency,
    long Bytes,
    int Connections,
    string? FirstError,
    IReadOnlyList<string> ReportFiles)
{
    /// <summary>What NBomber returned for the scenario, for callers (tests) that check its statistics directly.</summary>
    [JsonIgnore]
    public ScenarioStats? Stats { get; init; }

    public static LoadResult From(string binding, LoadOperation operation, LoadModel model, string load, ScenarioStats scenario, IReadOnlyList<string> reportFiles, int connections, string? firstError)
    {
        var ok = scenario.Ok;
        return new LoadResult(
            binding,
            operation.Name,
            model.Name(),
            load,
            ok.Request.Count,
            scenario.Fail.Request.Count,
            ok.Request.RPS,
            LatencyFigures.From(ok.Latency),
            ok.DataTransfer.AllBytes,
            connections,
            firstError,
            reportFiles)
        {
            Stats = scenario,
        };
    }
}
