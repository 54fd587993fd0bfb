using System.Globalization;
using System.Text;

namespace RpcCompare.Runner.Reporting;

/// <summary>report.md: the environment, then the same tables as the console.</summary>
internal static class MarkdownReporter
{
    public static string Render(Report report)
    {
        var text = new StringBuilder();
        var environment = report.Environment;
        var settings = report.Settings;
        text.AppendLine(CultureInfo.InvariantCulture, $"# RpcCompare report, {report.StartedUtc:yyyy-MM-dd HH:mm} UTC");
        text.AppendLine();
        text.AppendLine(CultureInfo.InvariantCulture, $"- Machine: {environment.CpuModel}, {environment.LogicalCpus} logical CPUs; {environment.Os}, kernel {environment.Kernel}");
        text.AppendLine(CultureInfo.InvariantCulture, $"- Runtime: {environment.Dotnet}; runner GC {Gc(environment.RunnerGc)}; host GC {Gc(environment.HostGc)}");
        text.AppendLine(CultureInfo.InvariantCulture, $"- Pinned to one CPU: {settings.PinningDescription}");
        text.AppendLine(CultureInfo.InvariantCulture, $"- Native floor: {environment.NativeFloor}");
        text.AppendLine(CultureInfo.InvariantCulture, $"- Method: {settings.Trials} trials of {settings.TrialSeconds:0.###} s after {settings.WarmUpSeconds:0.###} s of warm-up per cell; {settings.Clients} client(s) in a closed loop; host: {settings.HostMode}; {report.DurationSeconds:0} s in all{(settings.Quick ? "; --quick (minimal trials: smoke figures, not for comparison)" : "")}");
        text.AppendLine();
        text.AppendLine("| binding | configuration |");
        text.AppendLine("|---|---|");
        foreach (var binding in report.Bindings)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"| {binding.Label} | {Cell(binding.Configuration)} |");
        }

        foreach (var missing in report.NotMeasured)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"| {missing.Binding} | not measured: {Cell(missing.Reason)} |");
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

        return text.ToString();
    }

    public static string Gc(GcInfo gc) => gc.Server is { } server ? $"{(server ? "server" : "workstation")}, {gc.Mode}, {gc.Datas}" : gc.Mode;

    private static string Cell(string value) => value.Replace("|", "\\|", StringComparison.Ordinal);
}
