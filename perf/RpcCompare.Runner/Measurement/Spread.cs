namespace RpcCompare.Runner.Measurement;

/// <summary>A headline figure: the median of the trials, with the smallest and largest beside it.</summary>
internal sealed record Spread(double Median, double Min, double Max)
{
    /// <summary>For a paired ratio: the 95% confidence interval of its geometric mean (null for other figures, or under two trials).</summary>
    public RatioInterval? Interval { get; init; }

    public Spread Scale(double factor) => new(Median * factor, Min * factor, Max * factor);
}
