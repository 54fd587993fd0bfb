namespace RpcCompare.PushAgent;

/// <summary>
/// How long an agent waits for a batch of subscriptions to be confirmed. A subscription that is
/// neither confirmed nor refused is waiting for something (a gRPC stream past the server's
/// concurrent-stream limit on a shared connection waits until one is free): the agent reports it
/// instead of hanging the run.
/// </summary>
internal static class SubscribeDeadline
{
    /// <summary>30 s, and 10 ms more per subscription: thousands take a while on 2 busy cores.</summary>
    public static TimeSpan For(int subscriptions) => TimeSpan.FromSeconds(30) + TimeSpan.FromMilliseconds(10.0 * subscriptions);

    /// <summary>
    /// Runs <paramref name="subscribe"/> for every item, 32 at a time, until all are done or the
    /// deadline for their count passes. The token given to <paramref name="subscribe"/> is cancelled
    /// at the deadline; an exception from <paramref name="subscribe"/> ends the loop and is thrown.
    /// </summary>
    /// <returns>
    /// Whether the deadline passed before the loop ended: every subscription may still have made it
    /// just in time, so callers count what was confirmed rather than assume a shortfall.
    /// </returns>
    public static async Task<bool> RunAsync<T>(IReadOnlyCollection<T> items, Func<T, CancellationToken, ValueTask> subscribe)
    {
        using var deadline = new CancellationTokenSource(For(items.Count));
        try
        {
            await Parallel.ForEachAsync(items, new ParallelOptions { MaxDegreeOfParallelism = 32, CancellationToken = deadline.Token }, subscribe);
            return false;
        }
        catch (OperationCanceledException) when (deadline.IsCancellationRequested)
        {
            return true;
        }
    }

    /// <summary>What an agent says of the subscriptions still waiting at the deadline, as one agent's share.</summary>
    public static string Describe(int waiting, int wanted, int batch) =>
        $"one agent: {waiting:#,0} of its {wanted:#,0} subscriptions not confirmed within {For(batch).TotalSeconds:0} s " +
        "(neither refused nor failed: still waiting, e.g. for a stream of a connection at its concurrent-stream limit)";
}
