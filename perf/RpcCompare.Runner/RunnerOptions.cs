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
    bool Pin,
    string? HostEndpointsFile,
    string OutputRoot,
    int Repeat = 1,
    double NoiseThreshold = RunnerOptions.DefaultNoiseThreshold,
    bool Full = false,
    int? MaxSubscribers = null,
    string? Contracts = null)
{
    /// <summary>A cell whose trials span more than this share of their median is marked noisy.</summary>
    public const double DefaultNoiseThreshold = 0.10;
}
