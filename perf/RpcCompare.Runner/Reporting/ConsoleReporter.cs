using Spectre.Console;

namespace RpcCompare.Runner.Reporting;

/// <summary>Draws the report's tables on the console.</summary>
internal static class ConsoleReporter
{
    public static void Write(IAnsiConsole console, Report report)
    {
        console.Write(new Rule($"[bold]RpcCompare[/] {Markup.Escape(report.Environment.CpuModel)} × {report.Environment.LogicalCpus}, {Markup.Escape(report.Environment.Dotnet)}").LeftJustified());
        foreach (var table in ReportTables.Build(report))
        {
            var grid = new Table().Border(TableBorder.Rounded).Title($"[bold]{Markup.Escape(table.Title)}[/]");
            foreach (var (column, index) in table.Columns.Select((c, i) => (c, i)))
            {
                grid.AddColumn(new TableColumn(Markup.Escape(column)) { Alignment = index == 0 ? Justify.Left : Justify.Right });
            }

            foreach (var row in table.Rows)
            {
                grid.AddRow([.. row.Select(Markup.Escape)]);
            }

            if (table.Note is { } note)
            {
                grid.Caption($"[grey]{Markup.Escape(note)}[/]");
            }

            console.Write(grid);
        }

        foreach (var refused in ReportTables.RefusedList(report))
        {
            console.MarkupLineInterpolated($"[yellow]refused[/] {refused}");
        }

        foreach (var missing in report.NotMeasured)
        {
            console.MarkupLineInterpolated($"[yellow]not measured[/] {missing.Binding}: {missing.Reason}");
        }
    }
}
