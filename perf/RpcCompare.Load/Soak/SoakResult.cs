using RpcCompare.Load.Reporting;

namespace RpcCompare.Load.Soak;

/// <summary>One binding held at a fixed rate, with the host sampled every second.</summary>
/// <param name="Binding">The binding soaked.</param>
/// <param name="Operations">The operations called, each at the rate.</param>
/// <param name="Rate">Calls started per second, per operation.</param>
/// <param name="DurationSeconds">The measured part.</param>
/// <param name="Ok">Calls that succeeded.</param>
/// <param name="Failed">Calls that failed.</param>
/// <param name="Latency">Latency of the successful calls (all operations).</param>
/// <param name="Samples">The host, once a second.</param>
/// <param name="Problems">Each broken condition (<see cref="SoakVerdict"/>); empty when the soak passed.</param>
/// <param name="GcCounters">How the GC figures were read, or why they are missing.</param>
/// <param name="FirstError">The first failed call's error, or null.</param>
/// <param name="ReportFolder">NBomber's reports of the soak.</param>
internal sealed record SoakResult(
    string Binding,
    IReadOnlyList<string> Operations,
    int Rate,
    double DurationSeconds,
    long Ok,
    long Failed,
    LatencyFigures Latency,
    IReadOnlyList<HostSample> Samples,
    IReadOnlyList<string> Problems,
    string GcCounters,
    string? FirstError,
    string ReportFolder)
{
    public bool Passed => Problems.Count == 0;
}
