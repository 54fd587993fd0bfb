using System.Text.Json;
using System.Text.Json.Serialization;

namespace RpcCompare.Runner.Reporting;

/// <summary>report.json, in the schema of docs/report-schema.md.</summary>
internal static class JsonReporter
{
    public static readonly JsonSerializerOptions Options = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        DefaultIgnoreCondition = JsonIgnoreCondition.Never,
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    public static string Render(Report report) => JsonSerializer.Serialize(report, Options);
}
