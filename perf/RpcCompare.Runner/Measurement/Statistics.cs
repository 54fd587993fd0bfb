using Perfolizer.Mathematics.QuantileEstimators;

namespace RpcCompare.Runner.Measurement;

/// <summary>Quantiles through Perfolizer, BenchmarkDotNet's statistics library, rather than by hand.</summary>
internal static class Statistics
{
    public static double Median(IReadOnlyList<double> values) => Quantile(values, 0.5);

    public static double Quantile(IReadOnlyList<double> values, double probability) =>
        SimpleQuantileEstimator.Instance.Quantile(values, probability);
}
