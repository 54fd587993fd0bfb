using RpcCompare.Bindings;
using RpcCompare.Perf.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Hosting;

/// <summary>
/// What each host the runner started allocated per call, read from its runtime's events for the
/// whole run; every address a host serves maps to its monitor.
/// </summary>
internal sealed class HostAllocationTracker
{
    private readonly Dictionary<string, HostAllocationMonitor> _monitors = new(StringComparer.Ordinal);

    /// <summary>How host allocations were measured, or why not, for the report's environment section.</summary>
    public string Description { get; private set; } = "not measured: the pingpong suite did not run";

    public void NotMeasured(string why) => Description = "not measured: " + why;

    /// <summary>Starts reading <paramref name="host"/>'s allocations; returns the session to dispose before the host, or null when it cannot be read.</summary>
    public HostAllocationMonitor? Monitor(HostLauncher host)
    {
        ArgumentNullException.ThrowIfNull(host);
        var monitor = HostAllocationMonitor.TryStart(host.ProcessId, out var whyNot);
        if (monitor is null)
        {
            NotMeasured(whyNot ?? "the host's runtime events could not be read");
            return null;
        }

        foreach (var address in host.Endpoints.Values)
        {
            _monitors[address] = monitor;
        }

        Description = "GC AllocationTick events of the host's runtime, read over EventPipe (Microsoft.Diagnostics.NETCore.Client) and summed over " +
            "each trial's window: exact amounts per ~100 KB allocated, so within ~100 KB per allocating thread at each end of a trial";
        return monitor;
    }

    /// <summary>Bytes the host allocated per call during each cell's trials, for cells served by a monitored host.</summary>
    public async Task<IReadOnlyDictionary<CellResult, double>> PerCallAsync(IReadOnlyList<CellResult> cells)
    {
        foreach (var monitor in _monitors.Values.Distinct())
        {
            await monitor.StopAsync();
        }

        var perCall = new Dictionary<CellResult, double>();
        foreach (var cell in cells)
        {
            if (cell.Workload.Target.Binding != BindingNames.InProc && _monitors.TryGetValue(cell.Workload.Target.Address, out var monitor) && cell.TotalCalls > 0)
            {
                perCall[cell] = (double)cell.Trials.Sum(t => monitor.AllocatedBetween(t.Window.Start, t.Window.End)) / cell.TotalCalls;
            }
        }

        return perCall;
    }
}
