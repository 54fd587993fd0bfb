namespace RpcCompare.Runner.Measurement;

/// <summary>A headline figure: the median of the trials, with the smallest and largest beside it.</summary>
internal sealed record Spread(double Median, double Min, double Max)
{
    public Spread Scale(double factor) => new(Median * factor, Min * factor, Max * factor);
}
