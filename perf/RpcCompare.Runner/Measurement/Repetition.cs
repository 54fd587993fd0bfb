namespace RpcCompare.Runner.Measurement;

/// <summary>One pass over the whole selection (--repeat runs several in one invocation).</summary>
internal sealed record Repetition(int Number, List<CellResult> Cells, Dictionary<int, Spread> Native)
{
    /// <summary>
    /// Every repetition's trials of a cell, in repetition order, as one cell: each repetition
    /// gave every cell of a row the same number of trials, so trial t of two cells still ran side
    /// by side. The native floor keeps only its spread per repetition: the median of medians,
    /// the smallest minimum and the largest maximum.
    /// </summary>
    public static Repetition Pool(IReadOnlyList<Repetition> repetitions)
    {
        if (repetitions.Count == 1)
        {
            return repetitions[0];
        }

        var cells = repetitions[0].Cells
            .Select(first => new CellResult(first.Workload, first.Clients,
                [.. repetitions.SelectMany(r => r.Cells.Where(c => ReferenceEquals(c.Workload, first.Workload)).SelectMany(c => c.Trials))]))
            .ToList();
        var native = repetitions[0].Native.Keys.ToDictionary(size => size, size =>
        {
            var spreads = repetitions.Select(r => r.Native[size]).ToList();
            return new Spread(Statistics.Median([.. spreads.Select(s => s.Median)]), spreads.Min(s => s.Min), spreads.Max(s => s.Max));
        });
        return new Repetition(0, cells, native);
    }
}
