namespace RpcCompare.Runner.Measurement;

/// <summary>How long and how often each cell is measured.</summary>
internal sealed record MeasurementSettings(int Trials, TimeSpan WarmUp, TimeSpan TrialDuration, int Clients)
{
    /// <summary>Latency samples kept per trial; calls beyond it are sampled at an even stride.</summary>
    public const int MaxLatencySamples = 200_000;
}
