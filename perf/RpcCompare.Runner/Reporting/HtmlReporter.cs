using System.Globalization;
using System.Net;
using System.Reflection;
using System.Text;
using System.Text.Json;

using RpcCompare.Perf.Reporting;

namespace RpcCompare.Runner.Reporting;

/// <summary>
/// report.html: one self-contained page. The template and Chart.js are embedded resources and are
/// inlined with the report's JSON, so the page opens from disk with no network.
/// </summary>
internal static class HtmlReporter
{
    public static string Render(Report report)
    {
        var template = Resource("RpcCompare.Runner.report.html");
        var chartJs = ChartJs.Script;
        var tables = ReportTables.Build(report);
        // "</" inside inlined script would end the script element early.
        var json = JsonSerializer.Serialize(new { report, tables }, JsonReporter.Options).Replace("</", "<\\/", StringComparison.Ordinal);
        return template
            .Replace("<!--BODY-->", Body(report, tables), StringComparison.Ordinal)
            .Replace("/*CHART_JS*/", chartJs, StringComparison.Ordinal)
            .Replace("/*REPORT_JSON*/null", json, StringComparison.Ordinal);
    }

    // Sections and tables are static HTML, so the page reads (and tests read) without running script;
    // script only draws the charts into the canvases.
    private static string Body(Report report, IReadOnlyList<ReportTable> tables)
    {
        var html = new StringBuilder();
        html.Append("<dl>");
        Definition(html, "Started", $"{report.StartedUtc:yyyy-MM-dd HH:mm:ss} UTC");
        foreach (var (term, value) in ReportSummary.Facts(report).Concat(ReportSummary.Bindings(report)))
        {
            Definition(html, term, value);
        }

        html.Append("</dl>");
        foreach (var suite in report.Settings.Suites)
        {
            html.Append(CultureInfo.InvariantCulture, $"<section id=\"suite-{Encode(suite)}\"><h2>{Encode(suite)}</h2>");
            html.Append(CultureInfo.InvariantCulture, $"<div class=\"chart\"><canvas data-chart=\"{Encode(suite)}\"></canvas></div>");
            foreach (var table in tables.Where(t => t.Suite == suite))
            {
                AppendTable(html, table);
            }

            html.Append("</section>");
        }

        // Tables about the run rather than one suite (repeatability, with --repeat).
        foreach (var group in tables.Where(t => !report.Settings.Suites.Contains(t.Suite)).GroupBy(t => t.Suite))
        {
            html.Append(CultureInfo.InvariantCulture, $"<section id=\"{Encode(group.Key)}\"><h2>{Encode(group.Key)}</h2>");
            foreach (var table in group)
            {
                AppendTable(html, table);
            }

            html.Append("</section>");
        }

        if (ReportTables.RefusedList(report) is { Count: > 0 } refused)
        {
            html.Append(CultureInfo.InvariantCulture, $"<section id=\"refused\"><h2>Refused cells</h2><p class=\"note\">{Encode(ReportTables.RefusedNote(report))}</p><ul>");
            foreach (var line in refused)
            {
                html.Append(CultureInfo.InvariantCulture, $"<li>{Encode(line)}</li>");
            }

            html.Append("</ul></section>");
        }

        return html.ToString();
    }

    private static void AppendTable(StringBuilder html, ReportTable table)
    {
        // Wide tables scroll inside their own box, so every column can be reached on a narrow window while the page keeps its width.
        html.Append(CultureInfo.InvariantCulture, $"<h3>{Encode(table.Title)}</h3><div class=\"table-wrap\"><table><tr>");
        foreach (var column in table.Columns)
        {
            html.Append(CultureInfo.InvariantCulture, $"<th>{Encode(column)}</th>");
        }

        html.Append("</tr>");
        foreach (var row in table.Rows)
        {
            html.Append("<tr>");
            foreach (var cell in row)
            {
                html.Append(CultureInfo.InvariantCulture, $"<td>{Encode(cell)}</td>");
            }

            html.Append("</tr>");
        }

        html.Append("</table></div>");
        if (table.Note is { } note)
        {
            html.Append(CultureInfo.InvariantCulture, $"<p class=\"note\">{Encode(note)}</p>");
        }
    }

    private static void Definition(StringBuilder html, string term, string value) =>
        html.Append(CultureInfo.InvariantCulture, $"<dt>{Encode(term)}</dt><dd>{Encode(value)}</dd>");

    private static string Encode(string value) => WebUtility.HtmlEncode(value);

    private static string Resource(string name)
    {
        using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream(name)
            ?? throw new InvalidOperationException($"Embedded resource {name} is missing from the build.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
