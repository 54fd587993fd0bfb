using RpcCompare.Perf.Hosting;
using RpcCompare.Runner.Measurement;
using RpcCompare.Runner.Push;

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
    IReadOnlyList<RefusedCell> Refused,
    Repeatability? Repeatability,
    PushResults? Push = null)
{
    public const string SchemaName = "rpccompare-report/2";
}

internal sealed record RunSettings(IReadOnlyList<string> Suites, int Trials, double WarmUpSeconds, double TrialSeconds, int Clients, bool Quick, CpuPlacement Placement, string HostMode,
    int Repetitions, double NoiseThreshold, int MaxTrials = 0, double PrecisionTarget = 0)
{
    /// <summary>Pinning in words: an already-running host is not the runner's to pin.</summary>
    public string PinningDescription => (Placement, HostMode.StartsWith("already running", StringComparison.Ordinal)) switch
    {
        (CpuPlacement.None, _) => "no",
        (_, false) => "yes (--pin): " + CpuPinning.Describe(Placement),
        (_, true) => "runner only, on CPU 0: the already-running host was not pinned by the runner",
    };

    /// <summary>Whether --pin was given.</summary>
    public bool Pinned => Placement != CpuPlacement.None;
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
    Spread? RatioToNativeSpread,
    int Trials,
    long Calls,
    Spread? RatioToPipesSpread,
    Spread? PipesFasterPercent,
    Spread? OverheadShareSpread,
    double TrialSpread,
    bool Noisy,
    double? HostAllocatedBytesPerCall,
    string? Variant,
    Spread? RatioToBindingSpread)
{
    /// <summary>The runner process's CPU time per call (µs): the client side; for inproc the service too.</summary>
    public double? ClientCpuMicrosecondsPerCall { get; init; }

    /// <summary>The host process's CPU time per call (µs); null when the runner did not start the host.</summary>
    public double? HostCpuMicrosecondsPerCall { get; init; }

    /// <summary>The median of the side-by-side ratios to the native floor (<see cref="RatioToNativeSpread"/>).</summary>
    public double? RatioToNative => RatioToNativeSpread?.Median;

    /// <summary>The median of the side-by-side ratios to pipes (<see cref="RatioToPipesSpread"/>).</summary>
    public double? RatioToPipes => RatioToPipesSpread?.Median;

    /// <summary>(<see cref="RatioToPipes"/> − 1) × 100.</summary>
    public double? DifferenceToPipesPercent => RatioToPipes is { } r ? (r - 1) * 100 : null;

    /// <summary>The median of the side-by-side overhead shares (<see cref="OverheadShareSpread"/>).</summary>
    public double? OverheadShare => OverheadShareSpread?.Median;
}

internal sealed record BreakEvenPoint(long Size, double WorkMicroseconds, double OverheadShare);

internal sealed record BreakEvenThreshold(double Share, double? WorkMicroseconds, string Note);

internal sealed record BreakEvenCurve(string Sweep, string Binding, IReadOnlyList<BreakEvenPoint> Points, IReadOnlyList<BreakEvenThreshold> Thresholds);

internal sealed record NotMeasured(string Binding, string Reason);

/// <summary>How much each headline figure moved between the repetitions of one invocation (--repeat).</summary>
internal sealed record Repeatability(int Repetitions, double TargetDeviation, IReadOnlyList<HeadlineMovement> Headlines)
{
    /// <summary>The largest deviation from its median any headline showed, as a share.</summary>
    public double WorstDeviation => Headlines.Count == 0 ? 0 : Headlines.Max(h => h.MaxDeviation);

    public int WithinTarget => Headlines.Count(h => h.MaxDeviation <= TargetDeviation);
}

/// <summary>One headline figure (ratio to pipes, overhead share, ratio to the native floor) in every repetition.</summary>
internal sealed record HeadlineMovement(string Suite, string Operation, long? Size, string Binding, string Metric, IReadOnlyList<double> Values, double Median, double MaxDeviation);

/// <summary>
/// A cell with no figure, the refusal instead: the binding refused its request as over its message
/// limit, or (<paramref name="NotCarried"/>) cannot carry the cell's contract at all (a team's contract, --contracts).
/// </summary>
internal sealed record RefusedCell(string Suite, string Operation, string Binding, long? Size, string Reason, bool NotCarried = false);
