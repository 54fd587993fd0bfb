using System.Globalization;
using System.Net;
using System.Text;

namespace RpcCompare.Perf.Reporting;

/// <summary>A table of a report, drawn the same way in Markdown and HTML.</summary>
/// <param name="Title">Heading above the table.</param>
/// <param name="Columns">Header cells; every column but the first is right-aligned (figures).</param>
/// <param name="Rows">Cells as text, one list per row.</param>
/// <param name="Note">A paragraph under the table, or null.</param>
public sealed record Table(string Title, IReadOnlyList<string> Columns, IReadOnlyList<IReadOnlyList<string>> Rows, string? Note = null)
{
    public string ToMarkdown(int headingLevel = 2)
    {
        var md = new StringBuilder();
        md.AppendLine(CultureInfo.InvariantCulture, $"{new string('#', headingLevel)} {Title}");
        md.AppendLine();
        md.AppendLine("| " + string.Join(" | ", Columns.Select(Escape)) + " |");
        md.AppendLine("|---|" + string.Concat(Columns.Skip(1).Select(_ => "---:|")));
        foreach (var row in Rows)
        {
            md.AppendLine("| " + string.Join(" | ", row.Select(Escape)) + " |");
        }

        if (Note is not null)
        {
            md.AppendLine();
            md.AppendLine(Note);
        }

        return md.ToString();
    }

    public string ToHtml(int headingLevel = 2)
    {
        var html = new StringBuilder();
        // A wide table scrolls inside its own box (the page's CSS gives .table-wrap overflow-x), so every column can be reached on a narrow window.
        html.Append(CultureInfo.InvariantCulture, $"<h{headingLevel}>{Encode(Title)}</h{headingLevel}><div class=\"table-wrap\"><table><thead><tr>");
        foreach (var column in Columns)
        {
            html.Append(CultureInfo.InvariantCulture, $"<th>{Encode(column)}</th>");
        }

        html.Append("</tr></thead><tbody>");
        foreach (var row in Rows)
        {
            html.Append("<tr>");
            foreach (var (index, cell) in row.Index())
            {
                html.Append(CultureInfo.InvariantCulture, $"<td{(index > 0 ? " class=\"num\"" : "")}>{Encode(cell)}</td>");
            }

            html.Append("</tr>");
        }

        html.Append("</tbody></table></div>");
        if (Note is not null)
        {
            html.Append(CultureInfo.InvariantCulture, $"<p class=\"note\">{Encode(Note)}</p>");
        }

        return html.ToString();
    }

    private static string Escape(string cell) => cell.Replace("|", "\\|", StringComparison.Ordinal);

    private static string Encode(string value) => WebUtility.HtmlEncode(value);
}
