namespace RpcCompare.Runner.Measurement;

/// <summary>How long and how often each cell is measured; <paramref name="Trials"/> is the minimum, <paramref name="Precision"/> may add more.</summary>
internal sealed record MeasurementSettings(int Trials, TimeSpan WarmUp, TimeSpan TrialDuration, int Clients, PrecisionRule? Precision = null)
{
    /// <summary>The most trials a row may get.</summary>
    public int MaxTrials => Math.Max(Trials, Precision?.MaxTrials ?? Trials);

    /// <summary>
    /// Latency samples kept per trial; calls beyond it are sampled at an even stride. 50,000 per
    /// trial still puts hundreds of samples above p99 in every cell, and keeps a run's samples
    /// (every cell, every repetition) small enough not to burden the collector while it measures.
    /// </summary>
    public const int MaxLatencySamples = 50_000;
}
