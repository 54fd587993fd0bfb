namespace RpcCompare.Runner.Measurement;

/// <summary>Latency percentiles in microseconds.</summary>
internal sealed record Percentiles(double P50, double P99);
