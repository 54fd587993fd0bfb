using System.Globalization;
using RpcCompare.Load.Soak;
using RpcCompare.Perf.Reporting;

namespace RpcCompare.Load.Reporting;

/// <summary>The summary's tables, bindings side by side; report.md and report.html draw the same ones.</summary>
internal static class LoadTables
{
    private static readonly CultureInfo s_culture = CultureInfo.InvariantCulture;

    public static IReadOnlyList<Table> Build(LoadReport report)
    {
        var tables = new List<Table>();
        if (report.CapacitySearch is { } search && report.Capacities.Count > 0)
        {
            tables.Add(Capacity(report, search));
            if (SecurityCost.OfCapacities(report.Capacities) is { } capacityCost)
            {
                tables.Add(capacityCost);
            }

            tables.AddRange(report.Capacities.Select(cell => new Table(
                $"{cell.Binding} · {cell.Operation}: every step",
                ["rate/s", "calls/s", "p50 ms", "p75 ms", "p95 ms", "p99 ms", "failed", "MB", "connections", "verdict"],
                [.. cell.Steps.Select(step => (IReadOnlyList<string>)
                [
                    F($"{step.Rate:#,0}"), F($"{step.RequestsPerSecond:#,0}"), F($"{step.Latency.P50:0.##}"), F($"{step.Latency.P75:0.##}"),
                    F($"{step.Latency.P95:0.##}"), F($"{step.Latency.P99:0.##}"), F($"{step.Failed:#,0}"), F($"{step.Bytes / 1e6:0.#}"), F($"{step.Connections:#,0}"), step.Verdict,
                ])])));
        }

        if (report.Chaos is { } chaos)
        {
            tables.Add(Chaos(chaos));
            if (chaos.Push is { } push)
            {
                tables.Add(ChaosPush(push));
            }
        }

        if (report.Soaks.Count > 0)
        {
            tables.Add(Soaks(report));
        }

        foreach (var model in report.Results.Select(r => r.Model).Distinct())
        {
            var results = report.Results.Where(r => r.Model == model).ToList();
            var bindings = results.Select(r => r.Binding).Distinct().ToList();
            tables.Add(new Table(
                $"{results[0].Load}: calls/s, p50 / p99 ms, failed",
                ["operation", .. bindings],
                [.. results.Select(r => r.Operation).Distinct().Select(operation => (IReadOnlyList<string>)
                [
                    operation,
                    .. bindings.Select(binding => results.SingleOrDefault(r => r.Binding == binding && r.Operation == operation) is { } cell
                        ? F($"{cell.RequestsPerSecond:#,0} · {cell.Latency.P50:0.##} / {cell.Latency.P99:0.##}{(cell.Failed > 0 ? F($" · {cell.Failed:#,0} failed") : "")}")
                        : "–"),
                ])]));
        }

        if (SecurityCost.OfResults(report.Results) is { } cost)
        {
            tables.Add(cost);
        }

        return tables;
    }

    private static Table Capacity(LoadReport report, Capacity.CapacitySettings search)
    {
        var bindings = report.Capacities.Select(c => c.Binding).Distinct().ToList();
        return new Table(
            F($"Capacity: calls/s held for {search.Step.TotalSeconds:0.#} s with p99 ≤ {search.LatencyBudgetMs:0.##} ms and no failed call"),
            ["operation", .. bindings],
            [.. report.Capacities.Select(c => c.Operation).Distinct().Select(operation => (IReadOnlyList<string>)
            [
                operation,
                .. bindings.Select(binding => report.Capacities.SingleOrDefault(c => c.Binding == binding && c.Operation == operation) switch
                {
                    null => "–",
                    { Capacity: null } => "none",
                    { ReachedCeiling: true } cell => F($"≥ {cell.Capacity:#,0}"),
                    var cell => F($"{cell.Capacity:#,0}"),
                }),
            ])],
            "\"≥\": still held at the search's ceiling (--max-rate). What broke the next rate up: " +
            string.Join("; ", report.Capacities.Select(c => $"{c.Binding} · {c.Operation}: {c.Limit}")) + ".");
    }

    private static Table Soaks(LoadReport report)
    {
        static string Mb(double bytes) => F($"{bytes / 1048576:0}");
        static string Range<T>(IReadOnlyList<HostSample> samples, Func<HostSample, T?> value, Func<T, string> format)
            where T : struct =>
            samples.Select(value).OfType<T>().ToList() is { Count: > 0 } values ? $"{format(values[0])} → {format(values[^1])} (max {format(values.Max())})" : "–";
        return new Table(
            "Soak: each binding at a fixed rate, the host sampled every second",
            ["binding", "verdict", "rate/s", "minutes", "calls", "failed", "p50 / p99 ms", "RSS MB", "GC heap MB", "gen-2 GCs", "descriptors", "sockets", "threads"],
            [.. report.Soaks.Select(soak => (IReadOnlyList<string>)
            [
                soak.Binding,
                soak.Passed ? "passed" : "FAILED: " + string.Join("; ", soak.Problems),
                F($"{soak.Rate:#,0} × {soak.Operations.Count}"),
                F($"{soak.DurationSeconds / 60:0.#}"),
                F($"{soak.Ok:#,0}"),
                F($"{soak.Failed:#,0}"),
                F($"{soak.Latency.P50:0.##} / {soak.Latency.P99:0.##}"),
                Range(soak.Samples, s => (long?)s.RssBytes, v => Mb(v)),
                Range(soak.Samples, s => s.GcHeapBytes, v => Mb(v)),
                soak.Samples.Count > 0 ? F($"{soak.Samples[^1].Gen2Collections:#,0}") : "–",
                Range(soak.Samples, s => (int?)s.Handles, v => F($"{v}")),
                Range(soak.Samples, s => (int?)s.Sockets, v => F($"{v}")),
                Range(soak.Samples, s => (int?)s.Threads, v => F($"{v}")),
            ])],
            $"Criterion: {SoakVerdict.Criterion}. GC figures: {report.Soaks[0].GcCounters}.");
    }

    private static Table Chaos(Chaos.ChaosResult chaos) => new(
        chaos.Target == Load.Chaos.ChaosTarget.Replica
            ? F($"kill -9 of a replica behind the balancer at {chaos.KilledAtSeconds:0.00} s (the command took {chaos.KillCommandSeconds:0.00} s; not restarted)")
            : F($"kill -9 of the host at {chaos.KilledAtSeconds:0.00} s: serving again after {chaos.RestartSeconds:0.00} s{(chaos.SameAddresses ? "" : " (on OTHER addresses than before)")}"),
        ["binding", "verdict", "calls ok", "failed", "serving again after", "longest call", "writes acknowledged", "in the file", "lost", "written, reply lost", "last failure after the kill", "errors (most frequent)"],
        [.. chaos.Bindings.Select(b => (IReadOnlyList<string>)
        [
            b.Binding,
            b.Problems.Count == 0 ? "passed" : "FAILED: " + string.Join("; ", b.Problems),
            F($"{b.Ok:#,0}"),
            F($"{b.Failed:#,0}"),
            b.RecoverySeconds is { } r ? F($"{r:0.00} s") : "never",
            F($"{b.LongestCallMs:#,0} ms"),
            F($"{b.Writes.Acknowledged:#,0}"),
            F($"{b.Writes.Verified:#,0}"),
            F($"{b.Writes.Lost:#,0}"),
            F($"{b.Writes.WrittenUnacknowledged:#,0}"),
            b.FailuresEndedSeconds is { } f ? F($"{f:0.00} s") : "-",
            string.Join("; ", b.Errors.Take(3).Select(e => F($"{e.Count:#,0} × {Shorten(e.Error)}"))),
        ])],
        "Serving again: from the kill to the first successful call started after it. Writes: each carries its sequence number; " +
        "after the run the file is read directly, and every write whose reply arrived must be in it. \"Written, reply lost\": in the file, " +
        "but the host died before its reply reached the client. Last failure: from the kill to the end of the last failed call " +
        "(behind a balancer, how long calls still went to the dead replica).");

    private static Table ChaosPush(Chaos.ChaosPushResult push) => new(
        F($"push across the replicas: {push.Acknowledged:#,0} publications acknowledged through {push.PublisherBinding} (up to number {push.HighestAcknowledged:#,0}), {push.Failed:#,0} failed"),
        ["subscriber", "verdict", "received", "lost", "gone at a resumption (a known gap)", "repeated", "out of order", "subscription ended after the kill", "subscribed again after the kill"],
        [.. push.Subscribers.Select(s => (IReadOnlyList<string>)
        [
            F($"{s.Binding} #{s.Index}"),
            s.Problems.Count == 0 ? "passed" : "FAILED: " + string.Join("; ", s.Problems),
            F($"{s.Received:#,0}"),
            F($"{s.Missing:#,0}"),
            F($"{s.GoneAtResume:#,0}"),
            F($"{s.Duplicates:#,0}"),
            F($"{s.OutOfOrder:#,0}"),
            s.Interruptions.Count == 0 ? "-" : string.Join(", ", s.Interruptions.Select(i => F($"{i.EndedSeconds:0.00} s"))),
            s.Interruptions.Count == 0 ? "-" : string.Join(", ", s.Interruptions.Select(i => i.ResumedSeconds is { } r ? F($"{r:0.00} s") : "never")),
        ])],
        "Every subscriber connected through the balancer before the first publication; when its subscription ended it subscribed again " +
        "through the balancer from the last number it had. It must hold every acknowledged publication (1 to the highest number) once and in order, " +
        "but for the numbers between its last before an end and its first after resuming, when more were published meanwhile than a resumption replays (half a queue, 128 by default): " +
        "those are gone, and it can tell exactly which. " +
        "Subscribers with no end were on replicas that lived." + (push.Errors.Count == 0 ? "" :
            " Failed publications: " + string.Join("; ", push.Errors.Take(3).Select(e => F($"{e.Count:#,0} × {Shorten(e.Error)}"))) + "."));

    private static string Shorten(string error) => error.Length <= 160 ? error : error[..157] + "...";

    private static string F(FormattableString value) => value.ToString(s_culture);
}
