using System.Text.Json;
using static RpcCompare.Perf.Reporting.Dashboard.ReportJson;

namespace RpcCompare.Perf.Reporting.Dashboard;

/// <summary>
/// A load run's headlines from its load/report.json (schema rpccompare-load/*), one per mode: Ping
/// throughput of the closed model (scenarios), Ping capacity (--find-max), p99 at the soak's rate
/// (--soak) and recovery after the kill (--chaos kill-host).
/// </summary>
internal static class LoadReportReader
{
    public const string SchemaPrefix = "rpccompare-load/";

    public static RunSummary? Read(string id, JsonElement report, string resultsRoot)
    {
        if (!HasSchema(report, SchemaPrefix))
        {
            return null;
        }

        var figures = new RunFiguresBuilder();
        AddThroughput(figures, Array(report, "results"));
        AddCapacity(figures, Array(report, "capacities"));
        AddSoak(figures, Array(report, "soaks"));
        AddChaos(figures, Array(Object(report, "chaos") ?? default, "bindings"));

        // NBomber's reports are in a folder per binding (a soak's under <binding>/soak): link the ones that exist.
        var links = ReportLinks(resultsRoot, id);
        links.AddRange(Bindings(report).Where(b => Directory.Exists(Path.Combine(resultsRoot, id, b))).Select(b => new RunLink($"NBomber: {b}", $"{id}/{b}/")));
        var description = Text(report, "mode") switch
        {
            "FindMax" => "load: capacity search (--find-max)",
            "Soak" => "load: soak",
            "Chaos" => "load: kill -9 of the host",
            _ => "load: closed and open model scenarios",
        };
        return Summary(id, "load", report, "machine", description, links, figures);
    }

    // Every binding a section of the report names, whether or not it gave a headline (an open-model or write-at run gives none).
    private static IEnumerable<string> Bindings(JsonElement report) =>
        Array(report, "results").Concat(Array(report, "capacities")).Concat(Array(report, "soaks")).Concat(Array(Object(report, "chaos") ?? default, "bindings"))
            .Select(x => Text(x, "binding")).Where(b => b.Length > 0).Distinct(StringComparer.Ordinal);

    // The open model's rate is set by the command line, so only the closed model's virtual users measure throughput.
    private static void AddThroughput(RunFiguresBuilder figures, IReadOnlyList<JsonElement> results)
    {
        foreach (var result in results.Where(r => Text(r, "operation") == "ping" && Text(r, "model") == "closed"))
        {
            if (Number(result, "requestsPerSecond") is { } rate)
            {
                var failed = Number(result, "failed") ?? 0;
                var text = Format(rate, "#,0") + (P99OfSuccessfulCalls(result) is { } p99 ? $" (p99 {Format(p99, "0.0##")} ms)" : "") +
                    (failed > 0 ? $", {Format(failed, "#,0")} failed" : "");
                figures.Add(Headlines.Throughput, Text(result, "binding"), new(rate, text));
            }
        }
    }

    // NBomber's latency covers the successful calls only: with none, its zeros would read as the best p99 of all.
    private static double? P99OfSuccessfulCalls(JsonElement result) =>
        Number(result, "ok") is > 0 ? Number(result, "latency", "p99") : null;

    private static void AddCapacity(RunFiguresBuilder figures, IReadOnlyList<JsonElement> capacities)
    {
        foreach (var capacity in capacities.Where(c => Text(c, "operation") == "ping"))
        {
            var value = Number(capacity, "capacity");
            var text = value is { } c ? (IsTrue(capacity, "reachedCeiling") ? "≥ " : "") + Format(c, "#,0") : "not even the first rate held";
            figures.Add(Headlines.Capacity, Text(capacity, "binding"), new(value, text));
        }
    }

    private static void AddSoak(RunFiguresBuilder figures, IReadOnlyList<JsonElement> soaks)
    {
        foreach (var soak in soaks)
        {
            var p99 = P99OfSuccessfulCalls(soak);
            var problems = Array(soak, "problems").Count;
            var text = (p99 is { } p ? $"p99 {Format(p, "0.0##")} ms" : "no successful call") +
                (Number(soak, "rate") is { } rate ? $" at {Format(rate, "#,0")}/s per operation" : "") +
                (problems == 0 ? ", passed" : $", {problems} problem{(problems == 1 ? "" : "s")}");
            figures.Add(Headlines.SoakLatency, Text(soak, "binding"), new(p99, text));
        }
    }

    private static void AddChaos(RunFiguresBuilder figures, IReadOnlyList<JsonElement> bindings)
    {
        foreach (var binding in bindings)
        {
            var recovery = Number(binding, "recoverySeconds");
            var failed = Number(binding, "failed") ?? 0;
            var lost = Number(Object(binding, "writes") ?? default, "lost") ?? 0;
            var text = (recovery is { } r ? $"{Format(r, "0.00")} s" : "never recovered") +
                $", {Format(failed, "#,0")} failed call{(failed == 1 ? "" : "s")}" +
                (lost > 0 ? $", {Format(lost, "#,0")} acknowledged write{(lost == 1 ? "" : "s")} lost" : "");
            figures.Add(Headlines.Recovery, Text(binding, "binding"), new(recovery, text));
        }
    }
}
