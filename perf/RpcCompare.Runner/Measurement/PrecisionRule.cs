using System.Globalization;
using RpcCompare.Bindings;

namespace RpcCompare.Runner.Measurement;

/// <summary>
/// When a row has had enough trials: after the minimum, another round of paired trials runs while
/// some headline ratio of the row (a binding's to pipes, a knob's to its binding as the product
/// configures it) has a confidence interval wider than the target, up to a most of trials. The
/// stopping rule BenchmarkDotNet applies to one figure's error, applied to the ratios this tool
/// reports: on a 2-core VM one rate moves with the machine, a paired ratio much less.
/// </summary>
/// <param name="TargetHalfWidth">Half the ratio's 95% interval relative to it: 0.05 is ±5%. 0 never asks for more.</param>
/// <param name="MaxTrials">The most trials a row gets; at or below the minimum, the minimum is all.</param>
internal sealed record PrecisionRule(double TargetHalfWidth, int MaxTrials)
{
    public const double DefaultTargetHalfWidth = 0.05;

    /// <summary>The rates of one cell of the row so far, one per trial, with what tells it apart.</summary>
    public sealed record CellTrials(string Label, string Binding, string? Variant, IReadOnlyList<double> Rates);

    /// <summary>The row's ratios wider than the target, each as "label ±x%"; empty when every one is within it.</summary>
    public IReadOnlyList<string> Wide(IReadOnlyList<CellTrials> row)
    {
        if (TargetHalfWidth <= 0)
        {
            return [];
        }

        var pipes = row.FirstOrDefault(c => c.Binding == BindingNames.Pipes && c.Variant is null);
        var wide = new List<string>();
        foreach (var cell in row)
        {
            // A knob against its own binding; a binding against pipes; pipes itself is the reference.
            var reference = cell.Variant is not null
                ? row.FirstOrDefault(c => c.Binding == cell.Binding && c.Variant is null)
                : ReferenceEquals(cell, pipes) ? null : pipes;
            if (reference is null || RatioInterval.PairedRatios(cell.Rates, reference.Rates) is not { } ratios)
            {
                continue;
            }

            // Under two trials there is no interval yet: wide by definition. A trial without a call (a rate of 0)
            // never gives one: more trials would not help, so it asks for none.
            var interval = RatioInterval.Of(ratios);
            if (interval is null ? ratios.Length < 2 : interval.HalfWidth > TargetHalfWidth)
            {
                wide.Add(interval is null ? cell.Label : string.Create(CultureInfo.InvariantCulture, $"{cell.Label} ±{interval.HalfWidth * 100:0.0}%"));
            }
        }

        return wide;
    }
}
