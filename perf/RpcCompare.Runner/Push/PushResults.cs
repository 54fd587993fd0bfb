namespace RpcCompare.Runner.Push;

/// <summary>Everything the push suite measured, in report.json's "push" section (docs/report-schema.md).</summary>
/// <param name="Settings">How it measured.</param>
/// <param name="Broadcast">One search per push target.</param>
/// <param name="Collaboration">One result per row and push target.</param>
internal sealed record PushResults(PushSettings Settings, IReadOnlyList<BroadcastResult> Broadcast, IReadOnlyList<CollaborationResult> Collaboration);

/// <summary>A binding with one of its push variants, as a column of the push tables.</summary>
internal sealed record PushTarget(string Label, string Binding, string Variant, string Address);

/// <summary>Publish-to-receive latencies in milliseconds.</summary>
internal sealed record LatencySummary(long Count, double Mean, double Median, double StandardDeviation, double P99, double Max)
{
    public static LatencySummary? Of(IReadOnlyList<double> milliseconds)
    {
        if (milliseconds.Count == 0)
        {
            return null;
        }

        var mean = milliseconds.Average();
        var deviation = Math.Sqrt(milliseconds.Sum(v => (v - mean) * (v - mean)) / milliseconds.Count);
        return new(milliseconds.Count, mean, Measurement.Statistics.Median(milliseconds), deviation, Measurement.Statistics.Quantile(milliseconds, 0.99), milliseconds.Max());
    }
}

/// <summary>One M of the broadcast search.</summary>
/// <param name="Subscribers">M.</param>
/// <param name="Bursts">Bursts published at this M (the run stops at the first that is late).</param>
/// <param name="Completed">Bursts whose M notifications all arrived before the next publication was due.</param>
/// <param name="MedianCompletionMilliseconds">Median over the bursts of the time from publishing to the last arrival.</param>
/// <param name="WorstCompletionMilliseconds">The slowest burst's time to its last arrival.</param>
/// <param name="Held">Every burst completed in time.</param>
/// <param name="Failure">Why it did not hold.</param>
/// <param name="Confirmation">A confirmation run of an M the search found (<see cref="PushSettings.ConfirmBursts"/>), not a search step.</param>
internal sealed record BroadcastStep(int Subscribers, int Bursts, int Completed, double? MedianCompletionMilliseconds, double? WorstCompletionMilliseconds, bool Held, string? Failure,
    bool Confirmation = false);

/// <summary>The broadcast search over one push target.</summary>
/// <param name="Target">The binding and push variant searched.</param>
/// <param name="MaxSubscribers">The largest M that held (with confirmation: that held its confirmation run); null when none did.</param>
/// <param name="ReachedCeiling">M held at the search's ceiling: the binding may carry more.</param>
/// <param name="Steps">Every M tried, in order.</param>
/// <param name="AtMax">Delivery latencies of every notification of every burst of the run that made <paramref name="MaxSubscribers"/> count (its confirmation run, when there is one).</param>
/// <param name="BurstCompletionAtMax">The times to complete each burst of that run.</param>
internal sealed record BroadcastResult(PushTarget Target, int? MaxSubscribers, bool ReachedCeiling, IReadOnlyList<BroadcastStep> Steps, LatencySummary? AtMax, LatencySummary? BurstCompletionAtMax);

/// <summary>One collaboration row over one push target.</summary>
/// <param name="Target">The binding and push variant measured.</param>
/// <param name="Row">Rooms, members and interval.</param>
/// <param name="Iterations">Publications per room.</param>
/// <param name="Expected">Receipts due: rooms × publications per room × (members − 1).</param>
/// <param name="Received">Receipts that arrived.</param>
/// <param name="Latency">Publish-to-receive latency of every receipt.</param>
/// <param name="Failure">What went wrong, when something did (a refusal, a drop, lost receipts).</param>
internal sealed record CollaborationResult(PushTarget Target, CollaborationRow Row, int Iterations, long Expected, long Received, LatencySummary? Latency, string? Failure);
