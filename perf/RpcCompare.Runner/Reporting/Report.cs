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
    IReadOnlyList<NotMeasured> NotMeasured)
{
    public const string SchemaName = "rpccompare-report/1";
}

internal sealed record RunSettings(IReadOnlyList<string> Suites, int Trials, double WarmUpSeconds, double TrialSeconds, int Clients, bool Quick, bool Pinned, string HostMode);

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
