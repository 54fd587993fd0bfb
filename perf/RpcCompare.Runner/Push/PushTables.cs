using System.Globalization;
using RpcCompare.Runner.Reporting;

namespace RpcCompare.Runner.Push;

/// <summary>The push suite's tables: broadcast per target, collaboration rows down and targets across.</summary>
internal static class PushTables
{
    private static readonly CultureInfo s_culture = CultureInfo.InvariantCulture;

    public static IReadOnlyList<ReportTable> Build(PushResults push)
    {
        var settings = push.Settings;
        var tables = new List<ReportTable>();
        if (push.Broadcast.Count > 0)
        {
            tables.Add(new ReportTable(PushSuite.SuiteName,
                $"push: broadcast, the largest M whose {(settings.Confirmations > 0 ? settings.Confirmations : settings.Bursts)} consecutive bursts each completed within {Seconds(settings.PeriodSeconds)} " +
                $"(one publication every {Seconds(settings.PeriodSeconds)}{(settings.Confirmations > 0 ? $"; searched with {settings.Bursts} bursts a step" : "")})",
                ["binding", "max subscribers M", "burst completion at M, median / worst (ms)", "delivery at M, p50 / p99 / last (ms)", "what limited M"],
                [.. push.Broadcast.Select(b => (IReadOnlyList<string>)
                [
                    b.Target.Label,
                    b.MaxSubscribers is null ? "none held" : PushSuite.BroadcastText(b),
                    b.BurstCompletionAtMax is { } c ? $"{Ms(c.Median)} / {Ms(c.Max)}" : "–",
                    b.AtMax is { } l ? $"{Ms(l.Median)} / {Ms(l.P99)} / {Ms(l.Max)}" : "–",
                    b.ReachedCeiling ? $"the ceiling ({settings.MaxSubscribers:#,0})" : b.Steps.LastOrDefault(s => !s.Held) is { } late ? $"{(late.Confirmation ? "confirmation at " : "")}{late.Subscribers:#,0}: {late.Failure}" : "–",
                ])],
                $"Mode {settings.Mode}; the 2009 original: 5,000 subscribers every 10 s on 4 dedicated cores. M doubles from {settings.FirstSubscribers:#,0} until a burst is late, then bisects {settings.BisectSteps} time(s)" +
                (settings.Confirmations > 0 ? $"; the M found then runs {settings.Confirmations} bursts, and if that run fails the next smaller Ms that held are tried, up to two. " : ". ") +
                "Subscribers live in separate agent processes, each on its own connection, except gRPC's multiplexed variant: all of an agent's subscriptions share one HTTP/2 connection " +
                "(at most 100 streams on the product's host, Kestrel's default; streams-raised lifts it). Host, agents and runner share this machine."));
            tables.Add(new ReportTable(PushSuite.SuiteName,
                "push: broadcast steps, M tried and the median time to complete a burst (ms)",
                ["binding", "steps (M: median completion, ✓ held / ✗ late; \"confirm\": the longer run)"],
                [.. push.Broadcast.Select(b => (IReadOnlyList<string>)
                [
                    b.Target.Label,
                    string.Join(", ", b.Steps.Select(s => $"{(s.Confirmation ? "confirm " : "")}{s.Subscribers:#,0}: {(s.MedianCompletionMilliseconds is { } m ? Ms(m) : "–")} {(s.Held ? "✓" : "✗")}")),
                ])]));
        }

        if (push.Collaboration.Count > 0)
        {
            var targets = push.Collaboration.Select(c => c.Target.Label).Distinct().ToList();
            tables.Add(new ReportTable(PushSuite.SuiteName,
                $"push: collaboration, publish-to-receive latency (ms): mean / median / sd / p99, {settings.Iterations} publications per room",
                ["rooms × members at interval", .. targets],
                [.. settings.Rows.Select(row => (IReadOnlyList<string>)
                [
                    row.Label,
                    .. targets.Select(t => push.Collaboration.FirstOrDefault(c => c.Row == row && c.Target.Label == t) is { } c ? Cell(c) : "–"),
                ])],
                "The 2009 original on 4 cores: 2,000 rooms × 2 at 15 s held a 25 ms mean; 800 rooms × 3 collapsed to 2.7 s. " +
                "Each member publishes in turn; the others receive. \"lost\" counts receipts that never arrived."));
        }

        return tables;
    }

    private static string Cell(CollaborationResult result)
    {
        if (result.Received == 0 && result.Failure is { } failure)
        {
            // Nothing was lost in flight: the row could not run (its members never all subscribed).
            return $"failed: {failure}";
        }

        var text = result.Latency is { } l ? $"{Ms(l.Mean)} / {Ms(l.Median)} / {Ms(l.StandardDeviation)} / {Ms(l.P99)}" : "no receipts";
        return result.Received < result.Expected ? $"{text} ({result.Expected - result.Received:#,0} lost)" : text;
    }

    private static string Ms(double milliseconds) => milliseconds.ToString(milliseconds < 10 ? "0.00" : "#,0.0", s_culture);

    private static string Seconds(double seconds) => seconds.ToString("0.##", s_culture) + " s";
}
