using System.Text.Json;
using static RpcCompare.Perf.Reporting.Dashboard.ReportJson;

namespace RpcCompare.Perf.Reporting.Dashboard;

/// <summary>
/// A runner run's headlines from its report.json (schema rpccompare-report/*): the ops suite's
/// empty-call rate and ReadDirectory overhead share, and the push suite's broadcast M and
/// collaboration latency.
/// </summary>
internal static class RunnerReportReader
{
    public const string SchemaPrefix = "rpccompare-report/";

    public static RunSummary? Read(string id, JsonElement report, string resultsRoot)
    {
        if (!HasSchema(report, SchemaPrefix))
        {
            return null;
        }

        var settings = report.GetProperty("settings");
        var figures = new RunFiguresBuilder();
        AddOps(figures, Array(report, "measurements"));
        if (Object(report, "push") is { } push)
        {
            AddPush(figures, push);
        }

        var suites = string.Join(", ", Array(settings, "suites").Select(s => s.GetString()));
        var description = $"suites: {suites}" + (IsTrue(settings, "quick") ? " (--quick)" : "");
        return Summary(id, "runner", report, "cpuModel", description, ReportLinks(resultsRoot, id), figures);
    }

    // The ops suite's own cells: a tuning knob's or a variant's cell of the same operation is not the binding's headline.
    private static void AddOps(RunFiguresBuilder figures, IReadOnlyList<JsonElement> measurements)
    {
        foreach (var cell in measurements.Where(m => Text(m, "suite") == "ops" && Text(m, "variant").Length == 0))
        {
            var binding = Text(cell, "binding");
            switch (Text(cell, "operation"))
            {
                case "Ping" when Number(cell, "callsPerSecond", "median") is { } rate:
                    figures.Add(Headlines.EmptyCallRate, binding, new(rate, Format(rate, "#,0")));
                    break;
                // inproc is the reference the share is measured against: 0 by definition, not a figure.
                case "ReadDirectory" when binding != "inproc" && Number(cell, "overheadShareSpread", "median") is { } share:
                    figures.Add(Headlines.OverheadShare, binding, new(share * 100, Format(share, "0.0 %")));
                    break;
            }
        }
    }

    // Keyed by the push target's label (binding/variant): a binding's push variants are different columns of the push tables.
    private static void AddPush(RunFiguresBuilder figures, JsonElement push)
    {
        foreach (var search in Array(push, "broadcast"))
        {
            var target = Text(Object(search, "target") ?? default, "label");
            var max = Number(search, "maxSubscribers");
            var text = max is { } m ? (IsTrue(search, "reachedCeiling") ? "≥ " : "") + Format(m, "#,0") : "none held";
            figures.Add(Headlines.BroadcastMax, target, new(max, text));
        }

        foreach (var result in Array(push, "collaboration"))
        {
            var target = Text(Object(result, "target") ?? default, "label");
            var row = RowLabel(Object(result, "row") ?? default);
            var mean = Object(result, "latency") is { } latency ? Number(latency, "mean") : null;
            figures.Add(Headlines.CollaborationLatency, row.Length == 0 ? "" : $"{target}, {row}", new(mean, CollaborationText(result, mean)));
        }
    }

    // "2,000 × 2 at 1 s", built from the row's numbers in the invariant culture so runs on machines
    // of other cultures chart as the same row; the report's own label only when the numbers are missing.
    private static string RowLabel(JsonElement row) =>
        Number(row, "rooms") is { } rooms && Number(row, "members") is { } members && Number(row, "intervalSeconds") is { } interval
            ? $"{Format(rooms, "#,0")} × {Format(members, "0")} at {Format(interval, "0.##")} s"
            : Text(row, "label");

    // The mean, then whatever qualifies it: the p99, receipts that never arrived, the failure the run reported.
    private static string CollaborationText(JsonElement result, double? mean)
    {
        var parts = new List<string>();
        if (mean is { } m)
        {
            parts.Add($"{Format(m, "0.0")} ms");
            if (Number(Object(result, "latency") ?? default, "p99") is { } p99)
            {
                parts.Add($"p99 {Format(p99, "0.0")} ms");
            }
        }
        else
        {
            parts.Add("nothing received");
        }

        var (expected, received) = (Number(result, "expected") ?? 0, Number(result, "received") ?? 0);
        if (mean is not null && received < expected)
        {
            parts.Add($"{Format(received, "#,0")} of {Format(expected, "#,0")} received");
        }

        if (Text(result, "failure") is { Length: > 0 } failure)
        {
            parts.Add(failure);
        }

        return string.Join(", ", parts);
    }
}
