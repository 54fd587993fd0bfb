using System.Globalization;
using System.Runtime;
using System.Runtime.InteropServices;
using System.Text.Json;
using RpcCompare.Perf.Reporting;

namespace RpcCompare.Runner.Reporting;

/// <summary>What a reader needs to judge the figures: machine, runtime, GC modes, pinning, knobs.</summary>
internal sealed record EnvironmentInfo(
    string CpuModel,
    int LogicalCpus,
    string Os,
    string Kernel,
    string Dotnet,
    GcInfo RunnerGc,
    GcInfo HostGc,
    bool Pinned,
    string NativeFloor,
    string HostAllocations,
    string? Commit)
{
    /// <param name="pinned">Whether --pin was given.</param>
    /// <param name="nativeFloor">The native floor's compiler, or why there is none.</param>
    /// <param name="hostStartedHere">Whether the runner started the host (so its runtimeconfig is the one next to the runner).</param>
    /// <param name="hostAllocations">How the host's allocations were read, or why they were not.</param>
    public static EnvironmentInfo Capture(bool pinned, string nativeFloor, bool hostStartedHere, string hostAllocations) => new(
        ReadCpuModel(),
        Environment.ProcessorCount,
        RuntimeInformation.OSDescription,
        ReadFirstLine("/proc/sys/kernel/osrelease") ?? Environment.OSVersion.VersionString,
        RuntimeInformation.FrameworkDescription,
        // The runner's own GC, as the runtime reports it (Batch is the only non-concurrent latency mode).
        new GcInfo(GCSettings.IsServerGC, GCSettings.LatencyMode == GCLatencyMode.Batch ? "non-concurrent" : "concurrent",
            DatasMode(AppContext.GetData("System.GC.DynamicAdaptationMode")), RunnerLohThreshold()),
        hostStartedHere ? ReadHostGc() : new GcInfo(null, "unknown: the host was started elsewhere", "unknown", "unknown"),
        pinned,
        nativeFloor,
        hostAllocations,
        SourceRevision.Describe());

    private static string ReadCpuModel()
    {
        var line = File.Exists("/proc/cpuinfo")
            ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))
            : null;
        return line?.Split(':', 2)[1].Trim() ?? RuntimeInformation.ProcessArchitecture.ToString();
    }

    // The host is another process: read the GC settings its runtimeconfig.json gives it.
    private static GcInfo ReadHostGc()
    {
        var path = Path.Combine(AppContext.BaseDirectory, "RpcCompare.Host.runtimeconfig.json");
        if (!File.Exists(path))
        {
            return new GcInfo(null, "unknown: no RpcCompare.Host.runtimeconfig.json next to the runner", "unknown", "unknown");
        }

        using var document = JsonDocument.Parse(File.ReadAllText(path));
        var properties = document.RootElement.GetProperty("runtimeOptions").TryGetProperty("configProperties", out var p) ? p : default;
        bool Flag(string name) => properties.ValueKind == JsonValueKind.Object && properties.TryGetProperty(name, out var v) && v.GetBoolean();
        object? Datas() => properties.ValueKind == JsonValueKind.Object && properties.TryGetProperty("System.GC.DynamicAdaptationMode", out var v) ? v.GetInt32() : null;
        string? Threshold() => properties.ValueKind == JsonValueKind.Object && properties.TryGetProperty("System.GC.LOHThreshold", out var v)
            ? v.ValueKind == JsonValueKind.Number ? v.GetRawText() : v.GetString()
            : null;
        return new GcInfo(Flag("System.GC.Server"), Flag("System.GC.Concurrent") ? "concurrent" : "non-concurrent", DatasMode(Datas()), HostLohThreshold(Threshold()));
    }

    /// <summary>The default large-object threshold of the runtime (bytes): arrays from this size go to the large-object heap.</summary>
    public const long DefaultLohThreshold = 85_000;

    // The runner's own, as its GC took it (runtimeconfig or the environment).
    private static string RunnerLohThreshold()
    {
        var variables = GC.GetConfigurationVariables();
        var bytes = variables.TryGetValue("LOHThreshold", out var value) ? Convert.ToInt64(value, CultureInfo.InvariantCulture) : DefaultLohThreshold;
        return LohThreshold(bytes, FromEnvironment() is not null);
    }

    // The host's: the environment it inherits from the runner wins over its runtimeconfig, as for any GC setting.
    private static string HostLohThreshold(string? configured)
    {
        if (FromEnvironment() is { } fromEnvironment)
        {
            return LohThreshold(fromEnvironment, fromEnvironment: true);
        }

        if (configured is null)
        {
            return LohThreshold(DefaultLohThreshold, fromEnvironment: false);
        }

        // A number, or a string the runtime reads as decimal or, with 0x, hexadecimal.
        return ParseGcNumber(configured, hexadecimal: false) is { } bytes
            ? LohThreshold(bytes, fromEnvironment: false)
            : $"LOHThreshold={configured} (unread: not a number)";
    }

    private static string LohThreshold(long bytes, bool fromEnvironment) =>
        string.Create(CultureInfo.InvariantCulture, $"LOHThreshold={bytes:N0} B") + (fromEnvironment ? " (environment)" : bytes == DefaultLohThreshold ? " (runtime default)" : "");

    // GC settings in the environment (DOTNET_, or the older COMPlus_) are hexadecimal, with or without 0x.
    private static long? FromEnvironment()
    {
        var text = Environment.GetEnvironmentVariable("DOTNET_GCLOHThreshold") ?? Environment.GetEnvironmentVariable("COMPlus_GCLOHThreshold");
        return string.IsNullOrWhiteSpace(text) ? null : ParseGcNumber(text, hexadecimal: true);
    }

    // A GC setting's number: with 0x always hexadecimal, without it as the source reads it; null for anything else.
    private static long? ParseGcNumber(string text, bool hexadecimal)
    {
        text = text.Trim();
        var prefixed = text.StartsWith("0x", StringComparison.OrdinalIgnoreCase);
        return long.TryParse(prefixed ? text[2..] : text, prefixed || hexadecimal ? NumberStyles.HexNumber : NumberStyles.Integer, CultureInfo.InvariantCulture, out var bytes)
            ? bytes
            : null;
    }

    private static string DatasMode(object? value) =>
        Environment.GetEnvironmentVariable("DOTNET_GCDynamicAdaptationMode") is { } fromEnvironment
            ? $"DynamicAdaptationMode={fromEnvironment} (environment)"
            : value is null ? "runtime default" : $"DynamicAdaptationMode={value}";

    private static string? ReadFirstLine(string path) => File.Exists(path) ? File.ReadLines(path).FirstOrDefault()?.Trim() : null;
}

/// <summary>A process's GC as a reader of the figures needs it.</summary>
/// <param name="Server">Server GC; null when unknown (a host started elsewhere).</param>
/// <param name="Mode">Concurrent or not, or why it is unknown.</param>
/// <param name="Datas">DATAS (dynamic adaptation) and where that was set.</param>
/// <param name="LohThreshold">From what size arrays go to the large-object heap, and where that was set.</param>
internal sealed record GcInfo(bool? Server, string Mode, string Datas, string LohThreshold);
