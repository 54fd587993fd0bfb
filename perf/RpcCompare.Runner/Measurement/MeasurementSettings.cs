namespace RpcCompare.Runner.Measurement;

/// <summary>How long and how often each cell is measured.</summary>
internal sealed record MeasurementSettings(int Trials, TimeSpan WarmUp, TimeSpan TrialDuration, int Clients)
{
    /// <summary>
    /// Latency samples kept per trial; calls beyond it are sampled at an even stride. 50,000 per
    /// trial still puts hundreds of samples above p99 in every cell, and keeps a run's samples
    /// (every cell, every repetition) small enough not to burden the collector while it measures.
    /// </summary>
    public const int MaxLatencySamples = 50_000;
}
