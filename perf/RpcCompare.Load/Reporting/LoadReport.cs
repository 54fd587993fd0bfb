using RpcCompare.Load.Capacity;
using RpcCompare.Load.Chaos;
using RpcCompare.Load.Soak;

namespace RpcCompare.Load.Reporting;

/// <summary>The load run's summary (report.json); NBomber's own reports sit beside it, one folder per binding.</summary>
internal sealed record LoadReport(
    string Schema,
    DateTimeOffset StartedUtc,
    double DurationSeconds,
    LoadEnvironment Environment,
    LoadMode Mode,
    LoadSettings Settings,
    CapacitySettings? CapacitySearch,
    string HostMode,
    IReadOnlyList<LoadResult> Results,
    IReadOnlyList<CapacityResult> Capacities,
    IReadOnlyList<SoakResult> Soaks,
    ChaosResult? Chaos)
{
    /// <summary>How a soak is judged, in words (<see cref="SoakVerdict"/>).</summary>
    public const string SchemaName = "rpccompare-load/2";

    /// <summary>How a soak is judged, in words (<see cref="SoakVerdict"/>).</summary>
    public string? SoakCriterion => Soaks.Count > 0 ? SoakVerdict.Criterion : null;
}

/// <summary>Where the load ran.</summary>
/// <param name="Machine">CPU model.</param>
/// <param name="LogicalCpus">Logical CPUs of the machine.</param>
/// <param name="OperatingSystem">As the runtime describes it.</param>
/// <param name="DotNet">The runtime's version.</param>
/// <param name="NBomber">NBomber's version, and why this one.</param>
/// <param name="Commit">git describe --always --dirty of the working directory; null outside a repository.</param>
internal sealed record LoadEnvironment(string Machine, int LogicalCpus, string OperatingSystem, string DotNet, string NBomber, string? Commit)
{
    public static LoadEnvironment Capture() => new(
        ReadCpuModel() ?? System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture.ToString(),
        System.Environment.ProcessorCount,
        System.Runtime.InteropServices.RuntimeInformation.OSDescription,
        System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription,
        $"NBomber {typeof(NBomber.CSharp.NBomberRunner).Assembly.GetName().Version?.ToString(3)} (4.1.2 is its last Apache-2.0 release)",
        RpcCompare.Perf.Reporting.SourceRevision.Describe());

    private static string? ReadCpuModel() =>
        File.Exists("/proc/cpuinfo")
            ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim()
            : null;
}
