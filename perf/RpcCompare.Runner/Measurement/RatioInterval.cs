using Perfolizer.Mathematics.Distributions.ContinuousDistributions;

namespace RpcCompare.Runner.Measurement;

/// <summary>
/// The 95% confidence interval of a paired ratio: of the geometric mean of the trials' ratios
/// (trial t of one cell over trial t of the other), from Student's t on their logarithms. Logs,
/// because a ratio's interval must read the same both ways round (a/b within ±5% exactly when b/a
/// is) and rates' ratios spread multiplicatively; BenchmarkDotNet gives single figures the same
/// t-based interval.
/// </summary>
internal sealed record RatioInterval(double Low, double High)
{
    public const double Confidence = 0.95;

    /// <summary>Half the interval, relative to its (geometric) centre: 0.05 is "within ±5%".</summary>
    public double HalfWidth => Math.Sqrt(High / Low) - 1;

    /// <summary>The interval of <paramref name="ratios"/>; null for fewer than two, or for a ratio that is not a positive number.</summary>
    public static RatioInterval? Of(IReadOnlyList<double> ratios)
    {
        if (ratios.Count < 2 || ratios.Any(r => !(r > 0) || double.IsPositiveInfinity(r)))
        {
            return null;
        }

        var logs = ratios.Select(r => Math.Log(r)).ToArray();
        var mean = logs.Average();
        var deviation = Math.Sqrt(logs.Sum(l => (l - mean) * (l - mean)) / (logs.Length - 1));
        var t = new StudentDistribution(logs.Length - 1).Quantile(1 - ((1 - Confidence) / 2));
        var half = t * deviation / Math.Sqrt(logs.Length);
        return new RatioInterval(Math.Exp(mean - half), Math.Exp(mean + half));
    }

    /// <summary>Trial t of <paramref name="rates"/> over trial t of <paramref name="others"/>, when both have the same trials.</summary>
    public static double[]? PairedRatios(IReadOnlyList<double> rates, IReadOnlyList<double> others) =>
        rates.Count == others.Count && rates.Count > 0 ? [.. rates.Zip(others, (c, o) => c / o)] : null;
}
