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
    /// <summary>
    /// The most trials a row gets: the minimum unless --max-trials raises it. Not more by default: on this
    /// 2-vCPU VM, taking rows to 10 trials narrowed each run's intervals but did not make three repetitions
    /// agree any better, for 1.8 times the time (docs/measurements/precision-20261127.md).
    /// </summary>
    public int MostTrials => MaxTrials ?? Trials;

    /// <summary>The stopping rule; none when it is off (--precision 0) or the most trials is the minimum.</summary>
    public PrecisionRule? PrecisionRule => Precision <= 0 || MostTrials <= Trials ? null : new PrecisionRule(Precision, MostTrials);

    /// <summary>A cell whose trials span more than this share of their median is marked noisy.</summary>
    public const double DefaultNoiseThreshold = 0.10;
}
