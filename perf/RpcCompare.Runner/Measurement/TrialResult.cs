namespace RpcCompare.Runner.Measurement;

/// <summary>What one timed trial of one cell produced.</summary>
/// <param name="Calls">Calls completed by all clients.</param>
/// <param name="Seconds">Wall time of the trial.</param>
/// <param name="AllocatedBytes">Bytes allocated by the whole runner process during the trial.</param>
/// <param name="LatencyTicks">Sampled per-call latencies, in Stopwatch ticks.</param>
internal sealed record TrialResult(long Calls, double Seconds, long AllocatedBytes, long[] LatencyTicks)
{
    /// <summary>Local wall-clock start and end, to match the trial with the host's runtime events.</summary>
    public (DateTime Start, DateTime End) Window { get; init; }

    /// <summary>CPU time the runner process used during the trial (every thread: the clients and the runtime).</summary>
    public TimeSpan ClientCpu { get; init; }

    /// <summary>CPU time the host process used during the trial; null when the runner did not start the host (or it is inproc).</summary>
    public TimeSpan? HostCpu { get; init; }

    public double CallsPerSecond => Calls / Seconds;
}
