using System.Globalization;
using System.Net;
using System.Reflection;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using RpcCompare.Perf.Reporting;

namespace RpcCompare.Load.Reporting;

/// <summary>Writes the summary: report.json (every figure), report.md and report.html (bindings side by side, the same tables; charts in the HTML).</summary>
internal static class LoadReportWriter
{
    private static readonly CultureInfo s_culture = CultureInfo.InvariantCulture;

    public static JsonSerializerOptions Json { get; } = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        Converters = { new JsonStringEnumConverter() },
    };

    public static void Write(LoadReport report, string directory)
    {
        Directory.CreateDirectory(directory);
        File.WriteAllText(Path.Combine(directory, "report.json"), JsonSerializer.Serialize(report, Json));
        File.WriteAllText(Path.Combine(directory, "report.md"), Markdown(report, directory));
        File.WriteAllText(Path.Combine(directory, "report.html"), Html(report, directory));
    }

    public static string Markdown(LoadReport report, string directory)
    {
        var md = new StringBuilder();
        md.AppendLine(s_culture, $"# RpcCompare load run, {report.StartedUtc:yyyy-MM-dd HH:mm:ss} UTC");
        md.AppendLine();
        foreach (var line in Header(report))
        {
            md.AppendLine(line);
        }

        foreach (var table in LoadTables.Build(report))
        {
            md.AppendLine();
            md.Append(table.ToMarkdown());
        }

        if (Errors(report) is { Count: > 0 } errors)
        {
            md.AppendLine();
            md.AppendLine("## First error per scenario with failed calls");
            md.AppendLine();
            foreach (var error in errors)
            {
                md.AppendLine(s_culture, $"- {error}");
            }
        }

        if (NBomberReports(report, directory) is { Count: > 0 } reports)
        {
            md.AppendLine();
            md.AppendLine("## NBomber's reports");
            md.AppendLine();
            md.AppendLine("As NBomber wrote them (its HTML report loads scripts from public CDNs, so it renders only online):");
            md.AppendLine();
            foreach (var (label, links) in reports)
            {
                md.AppendLine(s_culture, $"- {label}: {string.Join(" ", links.Select(l => $"[{l.Text}]({l.Href})"))}");
            }
        }

        return md.ToString();
    }

    public static string Html(LoadReport report, string directory)
    {
        var body = new StringBuilder();
        body.Append(s_culture, $"<h1>RpcCompare load run, {report.StartedUtc:yyyy-MM-dd HH:mm:ss} UTC</h1>");
        foreach (var line in Header(report))
        {
            body.Append(s_culture, $"<p>{Encode(line)}</p>");
        }

        if (report.Capacities.Count > 0)
        {
            body.Append("<div class=\"chart\"><canvas data-chart=\"capacity\"></canvas></div><div class=\"chart\"><canvas data-chart=\"steps\"></canvas></div>");
        }

        if (report.Results.Count > 0)
        {
            body.Append("<div class=\"chart\"><canvas data-chart=\"scenarios\"></canvas></div>");
        }

        if (report.Soaks.Count > 0)
        {
            body.Append("<div class=\"chart\"><canvas data-chart=\"soak-memory\"></canvas></div><div class=\"chart\"><canvas data-chart=\"soak-descriptors\"></canvas></div>");
        }

        foreach (var table in LoadTables.Build(report))
        {
            body.Append(table.ToHtml());
        }

        if (Errors(report) is { Count: > 0 } errors)
        {
            body.Append("<h2>First error per scenario with failed calls</h2><ul>");
            body.AppendJoin("", errors.Select(e => $"<li>{Encode(e)}</li>"));
            body.Append("</ul>");
        }

        if (NBomberReports(report, directory) is { Count: > 0 } reports)
        {
            body.Append("<h2>NBomber's reports</h2><p>As NBomber wrote them (its HTML report loads scripts from public CDNs, so it renders only online):</p><ul>");
            body.AppendJoin("", reports.Select(r => $"<li>{Encode(r.Label)}: {string.Join(" ", r.Links.Select(l => $"<a href=\"{Encode(l.Href)}\">{Encode(l.Text)}</a>"))}</li>"));
            body.Append("</ul>");
        }

        using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream("RpcCompare.Load.report.html")
            ?? throw new InvalidOperationException("Embedded resource RpcCompare.Load.report.html is missing from the build.");
        using var reader = new StreamReader(stream);
        // "</" inside inlined script would end the script element early.
        var json = JsonSerializer.Serialize(report, Json).Replace("</", "<\\/", StringComparison.Ordinal);
        return reader.ReadToEnd()
            .Replace("<!--BODY-->", body.ToString(), StringComparison.Ordinal)
            .Replace("/*CHART_JS*/", ChartJs.Script, StringComparison.Ordinal)
            .Replace("/*REPORT_JSON*/null", json, StringComparison.Ordinal);
    }

    private static IEnumerable<string> Header(LoadReport report)
    {
        yield return string.Create(s_culture, $"{report.Environment.Machine}, {report.Environment.LogicalCpus} logical CPUs, {report.Environment.OperatingSystem}, {report.Environment.DotNet}; {report.Environment.NBomber}; commit {report.Environment.Commit ?? "not known"}.");
        yield return report.Chaos?.Target == Chaos.ChaosTarget.Replica
            ? string.Create(s_culture, $"Host: {report.HostMode}. Every binding under load at once through the balancer (one NBomber session, a scenario per binding), push subscribers through it on every push binding, one replica killed with SIGKILL and left dead; {report.DurationSeconds:0} s in all.")
            : report.Mode == LoadMode.Chaos
            ? string.Create(s_culture, $"Host: {report.HostMode}. Every binding under load at once (one NBomber session, a scenario per binding), the host killed with SIGKILL and restarted on the same addresses and data root; {report.DurationSeconds:0} s in all.")
            : report.Mode == LoadMode.Soak
            ? string.Create(s_culture, $"Host: {report.HostMode}. Soak: each binding in turn at a fixed open-model rate, the host process sampled every second from outside (/proc and the runtime's counters); {report.DurationSeconds:0} s in all.")
            : report.CapacitySearch is { } search
            ? string.Create(s_culture, $"Host: {report.HostMode}. Capacity search: each rate held for {search.Step.TotalSeconds:0.#} s (one NBomber session, calls started every ~10 ms), from {search.StartRate:#,0}/s doubled up to {search.MaxRate:#,0}/s, then bisected to within {search.Precision:P0}; {report.DurationSeconds:0} s in all.")
            : string.Create(s_culture, $"Host: {report.HostMode}. One NBomber session per binding, its scenarios one after another; each scenario's clients warmed for {report.Settings.WarmUp.TotalSeconds:0.#} s before the session, then {(report.Settings.Ramp > TimeSpan.Zero ? $"{report.Settings.Ramp.TotalSeconds:0.#} s of ramp (in NBomber's figures) and " : "")}{report.Settings.Duration.TotalSeconds:0.#} s of steady load; {report.DurationSeconds:0} s in all.");
    }

    private static List<string> Errors(LoadReport report) =>
    [
        .. report.Results.Where(r => r.FirstError is not null).Select(r => $"{r.Binding} · {r.Operation} · {r.Model}: {r.Failed:#,0} failed; {r.FirstError}"),
        .. report.Soaks.Where(s => s.FirstError is not null).Select(s => $"{s.Binding} · soak: {s.Failed:#,0} failed; {s.FirstError}"),
        .. report.Capacities.Where(c => c.FirstError is not null).Select(c => $"{c.Binding} · {c.Operation} · find-max: {c.Steps.Sum(s => s.Failed):#,0} failed; {c.FirstError}"),
    ];

    private static List<(string Label, IReadOnlyList<(string Text, string Href)> Links)> NBomberReports(LoadReport report, string directory)
    {
        string Relative(string path) => Path.GetRelativePath(directory, path).Replace('\\', '/');
        return
        [
            .. report.Results.GroupBy(r => r.Binding).Select(g => ($"{g.Key}: {string.Join(", ", g.Select(r => $"{r.Operation}-{r.Model}"))}",
                (IReadOnlyList<(string, string)>)[.. g.First().ReportFiles.Select(f => (Path.GetExtension(f).TrimStart('.'), Relative(f)))])),
            .. report.Capacities.Select(c => ($"{c.Binding} · {c.Operation} · find-max", (IReadOnlyList<(string, string)>)[("a folder per rate", Relative(c.ReportFolder) + "/")])),
            .. (report.Chaos is null ? [] : new[] { ("every binding · kill -9", (IReadOnlyList<(string, string)>)[("folder", "chaos/")]) }),
            .. report.Soaks.Select(s => ($"{s.Binding} · soak", (IReadOnlyList<(string, string)>)[("folder", Relative(s.ReportFolder) + "/")])),
        ];
    }

    private static string Encode(string value) => WebUtility.HtmlEncode(value);
}
