using System.Text.Json;
using RpcCompare.Load.Reporting;
using RpcCompare.Testing;

namespace RpcCompare.Load.Tests.Scenarios;

/// <summary>
/// One short load run over every network binding (host started as a separate process, Ping and
/// the 100 kB echo, closed and open model, 2 s each): NBomber's own statistics and reports, and
/// the summary beside them. Nothing here asserts a rate or a latency.
/// </summary>
[Collection(NBomberSessions.Name)]
public sealed class QuickLoadRunTests : IClassFixture<QuickLoadRunTests.QuickLoadRun>
{
    private static readonly string[] s_bindings = ["wcf-nettcp", "wcf-uds", "wcf-http", "grpc-tcp", "grpc-uds", "fast-tcp", "fast-uds", "pipes"];
    private readonly QuickLoadRun _run;

    public QuickLoadRunTests(QuickLoadRun run)
    {
        _run = run;
    }

    public static TheoryData<string, string, string> Scenarios()
    {
        var scenarios = new TheoryData<string, string, string>();
        foreach (var binding in s_bindings)
        {
            foreach (var operation in new[] { "ping", "echo-100kB" })
            {
                scenarios.Add(binding, operation, "closed");
                scenarios.Add(binding, operation, "open");
            }
        }

        return scenarios;
    }

    [Theory]
    [MemberData(nameof(Scenarios))]
    public void NBomberStatistics_ShowCallsServed_AndNoneFailed(string binding, string operation, string model)
    {
        Assert.True(_run.ExitCode == 0, _run.Console);
        var result = _run.Results.Single(r => r.Binding == binding && r.Operation == operation && r.Model == model);
        var scenario = result.Stats!;

        Assert.True(scenario.Ok.Request.Count > 0, $"{binding} {operation} {model}: no call succeeded");
        Assert.Equal(0, scenario.Fail.Request.Count);
        Assert.Null(result.FirstError);
        Assert.True(result.Connections >= 1);
        Assert.InRange(result.Latency.P50, double.Epsilon, result.Latency.P99);
    }

    [Theory]
    [MemberData(nameof(Scenarios))]
    public void NBomberReports_HtmlAndMarkdownExist_InTheBindingsFolder(string binding, string operation, string model)
    {
        var result = _run.Results.Single(r => r.Binding == binding && r.Operation == operation && r.Model == model);

        foreach (var extension in new[] { ".html", ".md" })
        {
            var report = Assert.Single(result.ReportFiles, f => f.EndsWith(extension, StringComparison.Ordinal));
            Assert.True(File.Exists(report), report);
            Assert.Equal(Path.Combine(_run.Directory, binding), Path.GetDirectoryName(report));
            Assert.Contains($"{operation}-{model}", File.ReadAllText(report), StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Summary_PutsEveryBindingSideBySide_PerModel_AndLinksNBombersReports()
    {
        var markdown = File.ReadAllText(Path.Combine(_run.Directory, "report.md"));
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(_run.Directory, "report.json")));

        Assert.Contains("| operation | " + string.Join(" | ", s_bindings) + " |", markdown, StringComparison.Ordinal);
        Assert.Contains("## closed model: 2 virtual users", markdown, StringComparison.Ordinal);
        Assert.Contains("## open model: 20 calls started per second", markdown, StringComparison.Ordinal);
        Assert.Contains("(4.1.2 is its last Apache-2.0 release)", markdown, StringComparison.Ordinal);
        Assert.Equal("rpccompare-load/2", json.RootElement.GetProperty("schema").GetString());
        Assert.Equal(s_bindings.Length * 4, json.RootElement.GetProperty("results").GetArrayLength());
        Assert.All(json.RootElement.GetProperty("results").EnumerateArray(), r =>
            Assert.All(r.GetProperty("reportFiles").EnumerateArray(), f => Assert.Contains($"({Path.GetRelativePath(_run.Directory, f.GetString()!)})", markdown, StringComparison.Ordinal)));
    }

    [Theory]
    [InlineData(1280)]
    [InlineData(390)]
    public async Task SummaryHtml_Chromium_DrawsItsChart_AndFitsTheWindow(int windowWidth)
    {
        var page = await HeadlessChromium.RenderAsync(Path.Combine(_run.Directory, "report.html"), windowWidth);

        Assert.Null(page.Error);
        Assert.Equal(1, page.ChartsDrawn);
        Assert.Contains("<td>ping</td>", page.Dom, StringComparison.Ordinal);
        // Nothing runs off the right edge: the summary's tables scroll inside their own boxes.
        Assert.Equal(0, page.PageOverflow);
    }

    [Fact]
    public void Dashboard_IsRewritten_AndListsTheRun()
    {
        var run = Path.GetDirectoryName(_run.Directory)!;
        var index = File.ReadAllText(Path.Combine(Path.GetDirectoryName(run)!, "index.html"));

        Assert.Contains($"<tr data-run=\"{Path.GetFileName(run)}/load\">", index, StringComparison.Ordinal);
        Assert.Contains("load: closed and open model scenarios", index, StringComparison.Ordinal);
        Assert.Contains("<b>Ping throughput/s, closed model</b>: ", index, StringComparison.Ordinal);
        // Read back from the written report: a property renamed on either side fails here.
        var throughput = _run.DashboardEntry.Figures["throughput"];
        Assert.Equal(s_bindings.Order(), throughput.Keys.Order());
        Assert.All(s_bindings, b => Assert.Equal(_run.Results.Single(r => r.Binding == b && r.Operation == "ping" && r.Model == "closed").RequestsPerSecond, throughput[b].Value));
    }

    [Fact]
    public async Task UnknownOperation_IsAUsageError_NamingTheOperations()
    {
        var (exitCode, console) = await LoadCommandRun.InvokeAsync(["--operations", "teleport"]);

        Assert.Equal(2, exitCode);
        Assert.Contains("Unknown operation 'teleport'. Operations: ping, read-directory, write-at, echo-100kB.", console, StringComparison.Ordinal);
    }

    public sealed class QuickLoadRun : LoadCommandRun
    {
        internal IReadOnlyList<LoadResult> Results => Report?.Results ?? [];

        // 2 s per scenario: a 1-s window saw no 100 kB gRPC echo complete once in CI (2026-11-25,
        // "grpc-tcp echo-100kB closed: no call succeeded") while the container tests built images
        // on both cores; the assertions need a call served, not a rate.
        protected override string[] Arguments =>
            ["--quick", "--operations", "ping,echo-100kB", "--users", "2", "--rate", "20", "--duration-seconds", "2", "--warmup-seconds", "0"];
    }
}
