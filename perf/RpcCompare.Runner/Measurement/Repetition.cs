namespace RpcCompare.Runner.Measurement;

/// <summary>One pass over the whole selection (--repeat runs several in one invocation).</summary>
/// <param name="Number">1-based; 0 for the pooled result.</param>
/// <param name="Cells">Every measured cell.</param>
/// <param name="Native">Each native floor's round trips per second in each trial, by floor and message size, in trial order.</param>
internal sealed record Repetition(int Number, List<CellResult> Cells, Dictionary<(string Floor, int Size), List<double>> Native)
{
    /// <summary>
    /// Every repetition's trials of a cell, in repetition order, as one cell: each repetition
    /// gave every cell of a row the same number of trials, so trial t of two cells still ran side
    /// by side. The native floor's trials, which ran in the rotation of their rows, pool the same way.
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
        var native = repetitions[0].Native.Keys.ToDictionary(key => key, key => repetitions.SelectMany(r => r.Native[key]).ToList());
        return new Repetition(0, cells, native);
    }
}
