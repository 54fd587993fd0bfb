using RpcCompare.Perf.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner;

/// <summary>What one run measures and how; built from the command line by <see cref="RunnerCommand"/>.</summary>
internal sealed record RunnerOptions(
    IReadOnlyList<string> Suites,
    IReadOnlyList<string>? Bindings,
    bool Quick,
    int Trials,
    TimeSpan WarmUp,
    TimeSpan TrialDuration,
    int Clients,
    CpuPlacement Pin,
    string? HostEndpointsFile,
    string OutputRoot,
    int Repeat = 1,
    double NoiseThreshold = RunnerOptions.DefaultNoiseThreshold,
    bool Full = false,
    int? MaxSubscribers = null,
    string? Contracts = null,
    int? MaxTrials = null,
    double Precision = PrecisionRule.DefaultTargetHalfWidth)
{
    /// <summary>The most trials a row gets: twice the minimum by default, the minimum with --quick (its trials are smoke).</summary>
    public int MostTrials => MaxTrials ?? (Quick ? Trials : 2 * Trials);

    /// <summary>The stopping rule; none when it is off (--precision 0) or the most trials is the minimum.</summary>
    public PrecisionRule? PrecisionRule => Precision <= 0 || MostTrials <= Trials ? null : new PrecisionRule(Precision, MostTrials);

    /// <summary>A cell whose trials span more than this share of their median is marked noisy.</summary>
    public const double DefaultNoiseThreshold = 0.10;
}
