using System.Globalization;
using System.Text.Json;

namespace RpcCompare.Perf.Reporting.Dashboard;

/// <summary>
/// Finds every run under a results folder and reads its headline figures from its report.json:
/// &lt;UTC&gt;/report.json (runner, schema rpccompare-report/*) and &lt;UTC&gt;/load/report.json (load
/// command, rpccompare-load/*). Reads by property name, so reports of older schema versions still
/// list, with whatever figures they have.
/// </summary>
public static class RunCatalog
{
    public static (IReadOnlyList<RunSummary> Runs, IReadOnlyList<string> Unreadable) Read(string resultsRoot)
    {
        var runs = new List<RunSummary>();
        var unreadable = new List<string>();
        if (!Directory.Exists(resultsRoot))
        {
            return (runs, unreadable);
        }

        foreach (var directory in Directory.GetDirectories(resultsRoot).Order(StringComparer.Ordinal))
        {
            var id = Path.GetFileName(directory);
            foreach (var (file, read) in new (string, Func<string, JsonElement, RunSummary?>)[]
            {
                (Path.Combine(directory, "report.json"), (i, json) => ReadRunner(i, json, resultsRoot)),
                (Path.Combine(directory, "load", "report.json"), (i, json) => ReadLoad(i + "/load", json, resultsRoot)),
            })
            {
                if (!File.Exists(file))
                {
                    continue;
                }

                try
                {
                    using var document = JsonDocument.Parse(File.ReadAllText(file));
                    if (read(id, document.RootElement) is { } run)
                    {
                        runs.Add(run);
                    }
                }
                catch (Exception exception) when (exception is JsonException or IOException or InvalidOperationException or FormatException or KeyNotFoundException)
                {
                    unreadable.Add($"{Path.GetRelativePath(resultsRoot, file)}: {exception.Message}");
                }
            }
        }

        return ([.. runs.OrderBy(r => r.StartedUtc).ThenBy(r => r.Kind, StringComparer.Ordinal)], unreadable);
    }

    private static RunSummary? ReadRunner(string id, JsonElement report, string resultsRoot)
    {
        if (!Text(report, "schema").StartsWith("rpccompare-report/", StringComparison.Ordinal))
        {
            return null;
        }

        var environment = report.GetProperty("environment");
        var settings = report.GetProperty("settings");
        var measurements = report.TryGetProperty("measurements", out var m) ? m.EnumerateArray().ToList() : [];
        bool Headline(JsonElement r, string operation) =>
            Text(r, "suite") == "ops" && Text(r, "operation") == operation && (!r.TryGetProperty("variant", out var v) || v.ValueKind == JsonValueKind.Null);

        var suites = settings.TryGetProperty("suites", out var s) ? string.Join(", ", s.EnumerateArray().Select(x => x.GetString())) : "";
        return new RunSummary(
            id,
            "runner",
            report.GetProperty("startedUtc").GetDateTimeOffset(),
            Machine(Text(environment, "cpuModel"), environment),
            Text(environment, "commit") is { Length: > 0 } commit ? commit : null,
            $"suites: {suites}" + (settings.TryGetProperty("quick", out var q) && q.ValueKind == JsonValueKind.True ? " (--quick)" : ""),
            report.GetProperty("durationSeconds").GetDouble(),
            Links(resultsRoot, id, ("report", "report.html"), ("markdown", "report.md"), ("json", "report.json")),
            PerBinding(measurements.Where(r => Headline(r, "Ping")), r => Number(r, "callsPerSecond", "median")),
            PerBinding(measurements.Where(r => Headline(r, "ReadDirectory")), r => Number(r, "overheadShareSpread", "median")),
            new Dictionary<string, double>());
    }

    private static RunSummary? ReadLoad(string id, JsonElement report, string resultsRoot)
    {
        if (!Text(report, "schema").StartsWith("rpccompare-load/", StringComparison.Ordinal))
        {
            return null;
        }

        var environment = report.GetProperty("environment");
        var mode = Text(report, "mode") is { Length: > 0 } m ? m : "Scenarios";
        var capacities = report.TryGetProperty("capacities", out var c) ? c.EnumerateArray().ToList() : [];
        var bindings = (report.TryGetProperty("results", out var r) ? r.EnumerateArray() : default(JsonElement.ArrayEnumerator))
            .Concat(capacities).Select(x => Text(x, "binding")).Where(b => b.Length > 0).Distinct().ToList();
        var links = Links(resultsRoot, id, ("report", "report.html"), ("markdown", "report.md"), ("json", "report.json")).ToList();
        links.AddRange(bindings.Where(b => Directory.Exists(Path.Combine(resultsRoot, id, b))).Select(b => new RunLink($"NBomber: {b}", $"{id}/{b}/")));
        return new RunSummary(
            id,
            "load",
            report.GetProperty("startedUtc").GetDateTimeOffset(),
            Machine(Text(environment, "machine"), environment),
            Text(environment, "commit") is { Length: > 0 } commit ? commit : null,
            mode switch
            {
                "FindMax" => "load: capacity search (--find-max)",
                "Soak" => "load: soak",
                "Chaos" => "load: kill -9 of the host",
                _ => "load: closed and open model scenarios",
            },
            report.GetProperty("durationSeconds").GetDouble(),
            links,
            new Dictionary<string, double>(),
            new Dictionary<string, double>(),
            PerBinding(capacities.Where(x => Text(x, "operation") == "ping"), x => x.TryGetProperty("capacity", out var v) && v.ValueKind == JsonValueKind.Number ? v.GetDouble() : null));
    }

    private static string Machine(string cpu, JsonElement environment) =>
        environment.TryGetProperty("logicalCpus", out var cpus) ? string.Create(CultureInfo.InvariantCulture, $"{cpu}, {cpus.GetInt32()} CPUs") : cpu;

    private static IReadOnlyList<RunLink> Links(string resultsRoot, string id, params (string Label, string File)[] files) =>
        [.. files.Where(f => File.Exists(Path.Combine(resultsRoot, id, f.File))).Select(f => new RunLink(f.Label, $"{id}/{f.File}"))];

    private static Dictionary<string, double> PerBinding(IEnumerable<JsonElement> records, Func<JsonElement, double?> value)
    {
        var figures = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var record in records)
        {
            if (value(record) is { } figure && Text(record, "binding") is { Length: > 0 } binding)
            {
                figures.TryAdd(binding, figure);
            }
        }

        return figures;
    }

    private static string Text(JsonElement element, string name) =>
        element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString()! : "";

    private static double? Number(JsonElement element, string name, string inner) =>
        element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Object
            && value.TryGetProperty(inner, out var number) && number.ValueKind == JsonValueKind.Number
            ? number.GetDouble()
            : null;
}
