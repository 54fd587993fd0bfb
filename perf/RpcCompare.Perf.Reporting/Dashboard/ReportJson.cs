using System.Globalization;
using System.Text.Json;

namespace RpcCompare.Perf.Reporting.Dashboard;

/// <summary>
/// Reading a report.json by property name, tolerant of fields an older schema version lacks: a
/// missing or mistyped field reads as empty, so an old report still lists with what it has.
/// </summary>
internal static class ReportJson
{
    public static string Text(JsonElement element, string name) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString()! : "";

    public static double? Number(JsonElement element, string name) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Number ? value.GetDouble() : null;

    /// <summary>A number inside an object property, such as <c>callsPerSecond.median</c>.</summary>
    public static double? Number(JsonElement element, string name, string inner) =>
        Object(element, name) is { } value ? Number(value, inner) : null;

    public static bool IsTrue(JsonElement element, string name) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.True;

    public static JsonElement? Object(JsonElement element, string name) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Object ? value : null;

    public static IReadOnlyList<JsonElement> Array(JsonElement element, string name) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Array ? [.. value.EnumerateArray()] : [];

    /// <summary>"CPU model, N CPUs" from a report's environment section.</summary>
    public static string Machine(string cpu, JsonElement environment) =>
        Number(environment, "logicalCpus") is { } cpus ? string.Create(CultureInfo.InvariantCulture, $"{cpu}, {cpus:0} CPUs") : cpu;

    public static string? Commit(JsonElement environment) => Text(environment, "commit") is { Length: > 0 } commit ? commit : null;

    /// <summary>Links to those of <paramref name="files"/> that exist in the run's folder.</summary>
    public static List<RunLink> Links(string resultsRoot, string id, params (string Label, string File)[] files) =>
        [.. files.Where(f => File.Exists(Path.Combine(resultsRoot, id, f.File))).Select(f => new RunLink(f.Label, $"{id}/{f.File}"))];

    /// <summary>Whether <paramref name="report"/> is one of the reports a reader knows (schema <paramref name="prefix"/>, any version).</summary>
    public static bool HasSchema(JsonElement report, string prefix) => Text(report, "schema").StartsWith(prefix, StringComparison.Ordinal);

    /// <summary>The links every report folder has: report.html, report.md and report.json, where they exist.</summary>
    public static List<RunLink> ReportLinks(string resultsRoot, string id) =>
        Links(resultsRoot, id, ("report", "report.html"), ("markdown", "report.md"), ("json", "report.json"));

    /// <summary>
    /// A run's line on the dashboard: the frame every report shares (start, machine, commit, duration) around what
    /// the reader of its kind found. <paramref name="cpuProperty"/> names the environment's CPU model field.
    /// </summary>
    public static RunSummary Summary(string id, string kind, JsonElement report, string cpuProperty, string description, IReadOnlyList<RunLink> links,
        RunFiguresBuilder figures)
    {
        var environment = report.GetProperty("environment");
        return new RunSummary(id, kind, report.GetProperty("startedUtc").GetDateTimeOffset(), Machine(Text(environment, cpuProperty), environment),
            Commit(environment), description, report.GetProperty("durationSeconds").GetDouble(), links, figures.ToDictionary());
    }

    public static string Format(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
