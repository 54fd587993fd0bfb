using RpcCompare.Load.Reporting;

namespace RpcCompare.Load.Capacity;

/// <summary>One rate held for one step, as NBomber measured it.</summary>
/// <param name="Rate">Calls started per second.</param>
/// <param name="Ok">Calls that succeeded.</param>
/// <param name="Failed">Calls that failed.</param>
/// <param name="RequestsPerSecond">Successful calls per second.</param>
/// <param name="Latency">Latency of the successful calls.</param>
/// <param name="Bytes">Bytes the successful calls carried, request and reply.</param>
/// <param name="Connections">Clients connected by the end of the step.</param>
/// <param name="Held">Whether the step met every condition (see <see cref="Verdict"/>).</param>
/// <param name="Verdict">"held", or the first condition it broke, in words.</param>
internal sealed record CapacityStep(int Rate, long Ok, long Failed, double RequestsPerSecond, LatencyFigures Latency, long Bytes, int Connections, bool Held, string Verdict)
{
    /// <summary>Judges a step: no failed call, p99 within the budget, and (nearly) every started call completed within the step.</summary>
    public static CapacityStep Judge(int rate, TimeSpan step, long ok, long failed, double requestsPerSecond, LatencyFigures latency, long bytes, int connections, double latencyBudgetMs)
    {
        var expected = rate * step.TotalSeconds;
        var verdict =
            failed > 0 ? $"{failed:#,0} calls failed"
            : latency.P99 > latencyBudgetMs ? $"p99 {latency.P99:0.##} ms over the {latencyBudgetMs:0.##} ms budget"
            : ok < CapacitySettings.DeliveredShare * expected ? $"only {ok:#,0} of {expected:#,0} calls completed in the step"
            : "held";
        return new CapacityStep(rate, ok, failed, requestsPerSecond, latency, bytes, connections, verdict == "held", verdict);
    }
}
