namespace RpcCompare.Load.Reporting;

/// <summary>The load run's summary (report.json); NBomber's own reports sit beside it, one folder per binding.</summary>
internal sealed record LoadReport(
    string Schema,
    DateTimeOffset StartedUtc,
    double DurationSeconds,
    LoadEnvironment Environment,
    LoadSettings Settings,
    string HostMode,
    IReadOnlyList<LoadResult> Results)
{
    public const string SchemaName = "rpccompare-load/1";
}

/// <summary>Where the load ran.</summary>
internal sealed record LoadEnvironment(string Machine, int LogicalCpus, string OperatingSystem, string DotNet, string NBomber)
{
    public static LoadEnvironment Capture() => new(
        ReadCpuModel() ?? System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture.ToString(),
        System.Environment.ProcessorCount,
        System.Runtime.InteropServices.RuntimeInformation.OSDescription,
        System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription,
        $"NBomber {typeof(NBomber.CSharp.NBomberRunner).Assembly.GetName().Version?.ToString(3)} (4.1.2 is its last Apache-2.0 release)");

    private static string? ReadCpuModel() =>
        File.Exists("/proc/cpuinfo")
            ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim()
            : null;
}
