using System.Diagnostics;

namespace RpcCompare.Runner.Measurement;

/// <summary>The trials of one cell, reduced to the figures every report shows.</summary>
internal sealed class CellResult
{
    public CellResult(Workload workload, int clients, IReadOnlyList<TrialResult> trials)
    {
        Workload = workload;
        Clients = clients;
        Trials = trials;
        var rates = trials.Select(t => t.CallsPerSecond).ToArray();
        CallsPerSecond = new Spread(Statistics.Median(rates), rates.Min(), rates.Max());
        var latencies = trials.SelectMany(t => t.LatencyTicks).Select(TicksToMicroseconds).ToArray();
        LatencyMicroseconds = latencies.Length == 0 ? null : new Percentiles(Statistics.Quantile(latencies, 0.50), Statistics.Quantile(latencies, 0.99));
        var calls = trials.Sum(t => t.Calls);
        TotalCalls = calls;
        AllocatedBytesPerCall = calls == 0 ? 0 : trials.Sum(t => (double)t.AllocatedBytes) / calls;
        ClientCpuMicrosecondsPerCall = calls == 0 ? null : trials.Sum(t => t.ClientCpu.TotalMicroseconds) / calls;
        HostCpuMicrosecondsPerCall = calls == 0 || trials.Any(t => t.HostCpu is null) ? null : trials.Sum(t => t.HostCpu!.Value.TotalMicroseconds) / calls;
    }

    public Workload Workload { get; }

    public int Clients { get; }

    public IReadOnlyList<TrialResult> Trials { get; }

    public Spread CallsPerSecond { get; }

    public Percentiles? LatencyMicroseconds { get; }

    public long TotalCalls { get; }

    public double AllocatedBytesPerCall { get; }

    /// <summary>The runner process's CPU time per call over the trials (clients, runtime, and for inproc the service too).</summary>
    public double? ClientCpuMicrosecondsPerCall { get; }

    /// <summary>The host process's CPU time per call over the trials; null when it was not read.</summary>
    public double? HostCpuMicrosecondsPerCall { get; }

    /// <summary>Mean time one client spends per call, from the median rate.</summary>
    public double MicrosecondsPerCall => 1e6 * Clients / CallsPerSecond.Median;

    private static double TicksToMicroseconds(long ticks) => ticks * 1e6 / Stopwatch.Frequency;
}
