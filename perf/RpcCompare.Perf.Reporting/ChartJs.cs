using System.Reflection;

namespace RpcCompare.Perf.Reporting;

/// <summary>Chart.js 4 (npm, pinned by Html/package-lock.json), ready to inline into a page's script element.</summary>
public static class ChartJs
{
    private static readonly Lazy<string> s_script = new(() =>
        EmbeddedResources.Read("RpcCompare.Perf.Reporting.chart.umd.min.js")
            // "</script" inside the inlined library would end the script element early.
            .Replace("</script", "<\\/script", StringComparison.OrdinalIgnoreCase));

    public static string Script => s_script.Value;
}

internal static class EmbeddedResources
{
    public static string Read(string name)
    {
        using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream(name)
            ?? throw new InvalidOperationException($"Embedded resource {name} is missing from the build.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
