using System.Globalization;
using System.Text.RegularExpressions;

namespace RpcCompare.Testing;

/// <summary>
/// Opens a page from disk in headless Chromium (Debian's package; perf/install-prerequisites.sh
/// installs it and .ci/run runs that) and returns what its scripts left on &lt;body&gt;: the report
/// pages set data-charts-drawn (charts Chart.js drew) and data-error (the first script error).
/// </summary>
public static partial class HeadlessChromium
{
    private static readonly string[] s_paths = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

    /// <param name="htmlPath">The page.</param>
    /// <param name="windowWidth">The window's width in CSS pixels (its height is 900).</param>
    public static async Task<RenderedPage> RenderAsync(string htmlPath, int windowWidth = 1280)
    {
        var chromium = s_paths.FirstOrDefault(File.Exists)
            ?? throw new InvalidOperationException("Chromium is not installed: `bash perf/install-prerequisites.sh` installs it (CI runs it first).");
        using var profile = new TemporaryDirectory();
        var (exitCode, output) = await TestProcess.RunAsync(
            chromium,
            ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", $"--user-data-dir={profile.FullPath}", $"--window-size={windowWidth},900", "--hide-scrollbars", "--virtual-time-budget=5000", "--dump-dom", new Uri(htmlPath).AbsoluteUri],
            TimeSpan.FromMinutes(2));
        var body = BodyTag().Match(output);
        if (exitCode != 0 || !body.Success)
        {
            throw new InvalidOperationException($"Chromium did not render {htmlPath} (exit code {exitCode}):\n{output}");
        }

        string? Attribute(string name) =>
            Regex.Match(body.Value, $"{name}=\"([^\"]*)\"") is { Success: true } m ? System.Net.WebUtility.HtmlDecode(m.Groups[1].Value) : null;
        return new RenderedPage(
            Attribute("data-charts-drawn") is { } drawn ? int.Parse(drawn, CultureInfo.InvariantCulture) : null,
            Attribute("data-error"),
            output,
            Attribute("data-page-overflow") is { } overflow ? int.Parse(overflow, CultureInfo.InvariantCulture) : null);
    }

    [GeneratedRegex("<body[^>]*>")]
    private static partial Regex BodyTag();
}

/// <param name="ChartsDrawn">What the page's script counted, or null when the script never got that far.</param>
/// <param name="Error">The first script error, or null.</param>
/// <param name="Dom">The document after its scripts ran (with Chromium's own messages around it).</param>
/// <param name="PageOverflow">Pixels the page was wider than the window, where its script measured it (report.html).</param>
public sealed record RenderedPage(int? ChartsDrawn, string? Error, string Dom, int? PageOverflow = null);
