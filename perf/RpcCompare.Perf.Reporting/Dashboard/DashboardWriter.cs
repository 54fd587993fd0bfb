using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace RpcCompare.Perf.Reporting.Dashboard;

/// <summary>
/// results/index.html: every run in the results folder with its date, machine, commit and headline
/// figures, links to its reports, and the headlines charted across runs. One self-contained page
/// (Chart.js and the data inlined) that opens from disk; the runner and the load command rewrite it
/// after every run.
/// </summary>
public static class DashboardWriter
{
    public const string FileName = "index.html";

    private static readonly JsonSerializerOptions s_json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
    };

    /// <summary>Rewrites <paramref name="resultsRoot"/>/index.html from the runs in it; returns its path.</summary>
    public static string Write(string resultsRoot)
    {
        var (runs, unreadable) = RunCatalog.Read(resultsRoot);
        Directory.CreateDirectory(resultsRoot);
        var path = Path.Combine(resultsRoot, FileName);
        var temporary = path + ".tmp";
        File.WriteAllText(temporary, Render(runs, unreadable));
        File.Move(temporary, path, overwrite: true);
        return path;
    }

    public static string Render(IReadOnlyList<RunSummary> runs, IReadOnlyList<string> unreadable)
    {
        // "</" inside inlined script would end the script element early.
        var json = JsonSerializer.Serialize(runs, s_json).Replace("</", "<\\/", StringComparison.Ordinal);
        return EmbeddedResources.Read("RpcCompare.Perf.Reporting.dashboard.html")
            .Replace("<!--BODY-->", Body(runs, unreadable), StringComparison.Ordinal)
            .Replace("/*CHART_JS*/", ChartJs.Script, StringComparison.Ordinal)
            .Replace("/*RUNS_JSON*/[]", json, StringComparison.Ordinal);
    }

    // The run table is static HTML, readable (and testable) without script; script only draws the charts.
    private static string Body(IReadOnlyList<RunSummary> runs, IReadOnlyList<string> unreadable)
    {
        var html = new StringBuilder();
        html.Append(CultureInfo.InvariantCulture, $"<p>{runs.Count} run{(runs.Count == 1 ? "" : "s")} in this folder, oldest first, with each run's headline figures as its report gives them; runs on different machines or settings are not comparable.</p>");
        html.Append("<h2>Headlines across runs</h2>");
        var charted = ChartedHeadlines(runs);
        if (charted.Count == 0)
        {
            html.Append("<p class=\"empty\">No run in this folder has a headline figure yet.</p>");
        }

        // Only the headlines some run has: a folder of runner runs shows no empty load charts.
        html.Append("<div class=\"charts\">");
        foreach (var headline in charted)
        {
            html.Append(CultureInfo.InvariantCulture, $"<section class=\"chart\"><h3>{Encode(headline.ChartTitle)}</h3><div class=\"canvas\"><canvas data-chart=\"{headline.Id}\" data-log=\"{(headline.Logarithmic ? "true" : "false")}\"></canvas></div></section>");
        }

        html.Append("</div>");

        // The runs table scrolls inside its own box on a narrow window; the page keeps the window's width.
        html.Append("<h2>Runs</h2><div class=\"table-wrap\"><table id=\"runs\"><thead><tr><th>started (UTC)</th><th>kind</th><th>what</th><th>machine</th><th>commit</th><th>took</th><th>headline figures</th><th>reports</th></tr></thead><tbody>");
        foreach (var run in runs)
        {
            html.Append(CultureInfo.InvariantCulture, $"<tr data-run=\"{Encode(run.Id)}\"><td>{run.StartedUtc:yyyy-MM-dd HH:mm:ss}</td><td>{Encode(run.Kind)}</td><td>{Encode(run.What)}</td><td>{Encode(run.Machine)}</td><td><code>{Encode(run.Commit ?? "not recorded")}</code></td><td>{Duration(run.DurationSeconds)}</td><td>{HeadlineCell(run)}</td><td>");
            html.AppendJoin(" · ", run.Links.Select(l => $"<a href=\"{Encode(l.Href)}\">{Encode(l.Label)}</a>"));
            html.Append("</td></tr>");
        }

        html.Append("</tbody></table></div>");
        if (unreadable.Count > 0)
        {
            html.Append("<h2>Reports that could not be read</h2><ul>");
            foreach (var line in unreadable)
            {
                html.Append(CultureInfo.InvariantCulture, $"<li>{Encode(line)}</li>");
            }

            html.Append("</ul>");
        }

        return html.ToString();
    }

    /// <summary>The headlines the page charts for these runs: those at least one of them has, in <see cref="Headlines.All"/>'s order.</summary>
    public static IReadOnlyList<Headline> ChartedHeadlines(IReadOnlyList<RunSummary> runs) =>
        [.. Headlines.All.Where(h => runs.Any(r => r.Figures.ContainsKey(h.Id)))];

    private static string HeadlineCell(RunSummary run)
    {
        var parts = Headlines.All
            .Where(h => run.Figures.ContainsKey(h.Id))
            .Select(h => $"<div><b>{Encode(h.Label)}</b>: {string.Join("; ", run.Figures[h.Id].Select(f => $"{Encode(f.Key)}: {Encode(f.Value.Text)}"))}</div>")
            .ToList();
        return parts.Count == 0 ? "<span class=\"none\">none of the headline figures in this run</span>" : string.Concat(parts);
    }

    private static string Duration(double seconds) =>
        seconds >= 120 ? string.Create(CultureInfo.InvariantCulture, $"{seconds / 60:0.#} min") : string.Create(CultureInfo.InvariantCulture, $"{seconds:0} s");

    private static string Encode(string value) => WebUtility.HtmlEncode(value);
}
