using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace RpcCompare.Load.Reporting;

/// <summary>Writes the summary: report.json (every figure) and report.md (bindings side by side per model).</summary>
internal static class LoadReportWriter
{
    private static readonly CultureInfo s_culture = CultureInfo.InvariantCulture;

    private static readonly JsonSerializerOptions s_json = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        Converters = { new JsonStringEnumConverter() },
    };

    public static void Write(LoadReport report, string directory)
    {
        Directory.CreateDirectory(directory);
        File.WriteAllText(Path.Combine(directory, "report.json"), JsonSerializer.Serialize(report, s_json));
        File.WriteAllText(Path.Combine(directory, "report.md"), Markdown(report, directory));
    }

    public static string Markdown(LoadReport report, string directory)
    {
        var md = new StringBuilder();
        md.AppendLine(s_culture, $"# RpcCompare load run, {report.StartedUtc:yyyy-MM-dd HH:mm:ss} UTC");
        md.AppendLine();
        md.AppendLine(s_culture, $"{report.Environment.Machine}, {report.Environment.LogicalCpus} logical CPUs, {report.Environment.OperatingSystem}, {report.Environment.DotNet}; {report.Environment.NBomber}.");
        md.AppendLine(s_culture, $"Host: {report.HostMode}. Warm-up {report.Settings.WarmUp.TotalSeconds:0.#} s and {report.Settings.Duration.TotalSeconds:0.#} s measured per scenario, one scenario at a time; {report.DurationSeconds:0} s in all.");
        foreach (var model in report.Results.Select(r => r.Model).Distinct())
        {
            var results = report.Results.Where(r => r.Model == model).ToList();
            var bindings = results.Select(r => r.Binding).Distinct().ToList();
            md.AppendLine();
            md.AppendLine(s_culture, $"## {results[0].Load}: calls/s, p50 / p99 ms, failed");
            md.AppendLine();
            md.AppendLine("| operation | " + string.Join(" | ", bindings) + " |");
            md.AppendLine("|---|" + string.Concat(bindings.Select(_ => "---:|")));
            foreach (var operation in results.Select(r => r.Operation).Distinct())
            {
                md.Append(s_culture, $"| {operation} |");
                foreach (var binding in bindings)
                {
                    var cell = results.SingleOrDefault(r => r.Binding == binding && r.Operation == operation);
                    md.Append(cell is null
                        ? " – |"
                        : string.Create(s_culture, $" {cell.RequestsPerSecond:#,0} · {cell.Latency.P50:0.##} / {cell.Latency.P99:0.##}{(cell.Failed > 0 ? $" · {cell.Failed:#,0} failed" : "")} |"));
                }

                md.AppendLine();
            }
        }

        var errors = report.Results.Where(r => r.FirstError is not null).ToList();
        if (errors.Count > 0)
        {
            md.AppendLine();
            md.AppendLine("## First error per scenario with failed calls");
            md.AppendLine();
            foreach (var result in errors)
            {
                md.AppendLine(s_culture, $"- {result.Binding} · {result.Operation} · {result.Model}: {result.Failed:#,0} failed; {result.FirstError}");
            }
        }

        md.AppendLine();
        md.AppendLine("## NBomber's reports");
        md.AppendLine();
        md.AppendLine("Per scenario, as NBomber wrote them (its HTML report loads scripts from public CDNs, so it renders only online):");
        md.AppendLine();
        foreach (var result in report.Results)
        {
            var links = result.ReportFiles.Select(f => $"[{Path.GetExtension(f).TrimStart('.')}]({Path.GetRelativePath(directory, f).Replace('\\', '/')})");
            md.AppendLine(s_culture, $"- {result.Binding} · {result.Operation} · {result.Model}: {string.Join(" ", links)}");
        }

        return md.ToString();
    }
}
