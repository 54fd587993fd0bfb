using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Reporting;

// The report.json schema, documented field by field in docs/report-schema.md.

internal sealed record Report(
    string Schema,
    DateTimeOffset StartedUtc,
    double DurationSeconds,
    EnvironmentInfo Environment,
    RunSettings Settings,
    IReadOnlyList<BindingInfo> Bindings,
    IReadOnlyList<MeasurementRecord> Measurements,
    IReadOnlyList<BreakEvenCurve> BreakEven,
    IReadOnlyList<NotMeasured> NotMeasured,
    IReadOnlyList<RefusedCell> Refused)
{
    public const string SchemaName = "rpccompare-report/1";
}

internal sealed record RunSettings(IReadOnlyList<string> Suites, int Trials, double WarmUpSeconds, double TrialSeconds, int Clients, bool Quick, bool Pinned, string HostMode)
{
    /// <summary>Pinning in words: an already-running host is not the runner's to pin.</summary>
    public string PinningDescription => (Pinned, HostMode.StartsWith("already running", StringComparison.Ordinal)) switch
    {
        (false, _) => "no",
        (true, false) => "yes: runner and host on CPU 0",
        (true, true) => "runner only, on CPU 0: the already-running host was not pinned by the runner",
    };
}

internal sealed record BindingInfo(string Label, string Binding, string Address, string Configuration);

internal sealed record MeasurementRecord(
    string Suite,
    string Operation,
    string Binding,
    long? Size,
    long PayloadBytes,
    int Clients,
    Spread CallsPerSecond,
    Percentiles? LatencyMicroseconds,
    double? AllocatedBytesPerCall,
    Spread? MegabytesPerSecond,
    double? RatioToPipes,
    double? DifferenceToPipesPercent,
    double? RatioToNative,
    double? OverheadShare,
    int Trials,
    long Calls);

internal sealed record BreakEvenPoint(long Size, double WorkMicroseconds, double OverheadShare);

internal sealed record BreakEvenThreshold(double Share, double? WorkMicroseconds, string Note);

internal sealed record BreakEvenCurve(string Sweep, string Binding, IReadOnlyList<BreakEvenPoint> Points, IReadOnlyList<BreakEvenThreshold> Thresholds);

internal sealed record NotMeasured(string Binding, string Reason);

/// <summary>A cell whose request the binding refused as over its message limit: no figure, the refusal instead.</summary>
internal sealed record RefusedCell(string Suite, string Operation, string Binding, long? Size, string Reason);
