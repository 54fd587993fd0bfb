using System.Globalization;
using System.Text;

namespace RpcCompare.Runner.Reporting;

/// <summary>report.md: the environment, then the same tables as the console.</summary>
internal static class MarkdownReporter
{
    public static string Render(Report report)
    {
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"# RpcCompare report, {report.StartedUtc:yyyy-MM-dd HH:mm} UTC");
        text.AppendLine();
        foreach (var (term, value) in ReportSummary.Facts(report))
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"- {term}: {value}");
        }

        text.AppendLine();
        text.AppendLine("| binding | configuration |");
        text.AppendLine("|---|---|");
        foreach (var (binding, configuration) in ReportSummary.Bindings(report))
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"| {binding} | {Cell(configuration)} |");
        }

        foreach (var table in ReportTables.Build(report))
        {
            text.AppendLine();
            text.AppendLine(CultureInfo.InvariantCulture, $"## {table.Title}");
            text.AppendLine();
            text.AppendLine("| " + string.Join(" | ", table.Columns.Select(Cell)) + " |");
            text.AppendLine("|" + string.Join("|", table.Columns.Select((_, i) => i == 0 ? "---" : "---:")) + "|");
            foreach (var row in table.Rows)
            {
                text.AppendLine("| " + string.Join(" | ", row.Select(Cell)) + " |");
            }

            if (table.Note is { } note)
            {
                text.AppendLine();
                text.AppendLine(note);
            }
        }

        if (ReportTables.RefusedList(report) is { Count: > 0 } refused)
        {
            text.AppendLine();
            text.AppendLine("## Refused cells");
            text.AppendLine();
            text.AppendLine(ReportTables.RefusedNote(report));
            text.AppendLine();
            foreach (var line in refused)
            {
                text.AppendLine(CultureInfo.InvariantCulture, $"- {line}");
            }
        }

        return text.ToString();
    }

    private static string Cell(string value) => value.Replace("|", "\\|", StringComparison.Ordinal);
}
