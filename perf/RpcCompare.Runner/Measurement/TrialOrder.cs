namespace RpcCompare.Runner.Measurement;

/// <summary>
/// The order in which the cells of a row run their trial number t: rotated by one each trial, so
/// over as many trials as there are cells every cell runs once in every position, and no binding
/// is always the first after a warm-up or the last before the next row.
/// </summary>
internal static class TrialOrder
{
    /// <param name="trial">1-based trial number.</param>
    /// <param name="cells">How many cells the row has open.</param>
    public static IEnumerable<int> For(int trial, int cells) =>
        Enumerable.Range(0, cells).Select(k => (k + trial - 1) % cells);
}
