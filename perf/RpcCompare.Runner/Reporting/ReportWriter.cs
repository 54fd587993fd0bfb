namespace RpcCompare.Runner.Reporting;

/// <summary>Writes one run's reports side by side under the output root.</summary>
internal static class ReportWriter
{
    /// <summary>Writes report.md, report.json and report.html to OUTPUT/&lt;UTC start&gt;/ and returns that directory.</summary>
    public static string Write(Report report, string outputRoot, DateTimeOffset started)
    {
        var directory = Path.Combine(outputRoot, started.ToString("yyyyMMdd'T'HHmmss'Z'", System.Globalization.CultureInfo.InvariantCulture));
        Directory.CreateDirectory(directory);
        File.WriteAllText(Path.Combine(directory, "report.md"), MarkdownReporter.Render(report));
        File.WriteAllText(Path.Combine(directory, "report.json"), JsonReporter.Render(report));
        File.WriteAllText(Path.Combine(directory, "report.html"), HtmlReporter.Render(report));
        return directory;
    }
}
