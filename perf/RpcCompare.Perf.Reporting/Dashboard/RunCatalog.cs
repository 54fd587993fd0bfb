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
                (Path.Combine(directory, "report.json"), (i, json) => RunnerReportReader.Read(i, json, resultsRoot)),
                (Path.Combine(directory, "load", "report.json"), (i, json) => LoadReportReader.Read(i + "/load", json, resultsRoot)),
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
}
