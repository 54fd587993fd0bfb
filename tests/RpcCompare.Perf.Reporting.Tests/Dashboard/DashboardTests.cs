using RpcCompare.Perf.Reporting.Dashboard;
using RpcCompare.Testing;

namespace RpcCompare.Perf.Reporting.Tests.Dashboard;

/// <summary>
/// results/index.html over a results folder holding a runner run, a load run (capacity search) and a
/// broken report: what it lists, what it links, and that Chromium draws its charts from disk.
/// </summary>
public sealed class DashboardTests : IDisposable
{
    private readonly TemporaryDirectory _results = new();

    public DashboardTests()
    {
        Write("20261101T100000Z/report.json", """
            {
              "schema": "rpccompare-report/2", "startedUtc": "2026-11-01T10:00:00+00:00", "durationSeconds": 95.5,
              "environment": { "cpuModel": "Test CPU", "logicalCpus": 2, "commit": "abc123def456" },
              "settings": { "suites": ["ops", "payload"], "quick": true },
              "measurements": [
                { "suite": "ops", "operation": "Ping", "binding": "pipes", "variant": null, "callsPerSecond": { "median": 29528.4 }, "overheadShareSpread": null },
                { "suite": "ops", "operation": "Ping", "binding": "grpc-uds", "variant": null, "callsPerSecond": { "median": 14894.0 }, "overheadShareSpread": null },
                { "suite": "tuning", "operation": "Ping", "binding": "pipes", "variant": "inline-io", "callsPerSecond": { "median": 99999.0 } },
                { "suite": "ops", "operation": "ReadDirectory", "binding": "pipes", "variant": null, "callsPerSecond": { "median": 5000.0 }, "overheadShareSpread": { "median": 0.228 } }
              ]
            }
            """);
        Write("20261101T100000Z/report.html", "<html></html>");
        Write("20261102T120000Z/load/report.json", """
            {
              "schema": "rpccompare-load/2", "startedUtc": "2026-11-02T12:00:00+00:00", "durationSeconds": 300,
              "environment": { "machine": "Test CPU", "logicalCpus": 2, "commit": "fedcba987654-dirty" },
              "mode": "FindMax", "results": [],
              "capacities": [
                { "binding": "pipes", "operation": "ping", "capacity": 22000 },
                { "binding": "grpc-uds", "operation": "ping", "capacity": 12000 },
                { "binding": "pipes", "operation": "echo-100kB", "capacity": 900 }
              ]
            }
            """);
        Write("20261102T120000Z/load/report.md", "# load");
        Directory.CreateDirectory(Path.Combine(_results.FullPath, "20261102T120000Z/load/pipes"));
        Write("20261103T000000Z/report.json", "{ not json");
    }

    [Fact]
    public void ListsEveryRun_WithDateMachineCommitAndHeadlines()
    {
        var html = File.ReadAllText(DashboardWriter.Write(_results.FullPath));

        Assert.Contains("<tr data-run=\"20261101T100000Z\"><td>2026-11-01 10:00:00</td><td>runner</td><td>suites: ops, payload (--quick)</td><td>Test CPU, 2 CPUs</td><td><code>abc123def456</code></td>", html, StringComparison.Ordinal);
        Assert.Contains("<tr data-run=\"20261102T120000Z/load\"><td>2026-11-02 12:00:00</td><td>load</td><td>load: capacity search (--find-max)</td><td>Test CPU, 2 CPUs</td><td><code>fedcba987654-dirty</code></td>", html, StringComparison.Ordinal);
        Assert.Contains("<b>Ping calls/s</b>: pipes 29,528, grpc-uds 14,894</div>", html, StringComparison.Ordinal);
        Assert.Contains("<b>ReadDirectory overhead</b>: pipes 22.8 %</div>", html, StringComparison.Ordinal);
        Assert.Contains("<b>Ping capacity/s</b>: pipes 22,000, grpc-uds 12,000</div>", html, StringComparison.Ordinal);
        Assert.Contains("2 runs in this folder", html, StringComparison.Ordinal);
    }

    [Fact]
    public void LinksEachRunsReports_ThatExist()
    {
        var html = File.ReadAllText(DashboardWriter.Write(_results.FullPath));

        Assert.Contains("<a href=\"20261101T100000Z/report.json\">json</a>", html, StringComparison.Ordinal);
        Assert.Contains("<a href=\"20261101T100000Z/report.html\">report</a>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("20261101T100000Z/report.md", html, StringComparison.Ordinal);
        Assert.Contains("<a href=\"20261102T120000Z/load/report.md\">markdown</a>", html, StringComparison.Ordinal);
        Assert.Contains("<a href=\"20261102T120000Z/load/pipes/\">NBomber: pipes</a>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("NBomber: grpc-uds", html, StringComparison.Ordinal);
    }

    [Fact]
    public void NamesAReportItCannotRead_AndListsTheRest()
    {
        var (runs, unreadable) = RunCatalog.Read(_results.FullPath);

        Assert.Equal(["20261101T100000Z", "20261102T120000Z/load"], runs.Select(r => r.Id));
        var broken = Assert.Single(unreadable);
        Assert.StartsWith(Path.Combine("20261103T000000Z", "report.json") + ": ", broken, StringComparison.Ordinal);
        Assert.Contains(Path.Combine("20261103T000000Z", "report.json"), File.ReadAllText(DashboardWriter.Write(_results.FullPath)), StringComparison.Ordinal);
    }

    [Fact]
    public void IsSelfContained()
    {
        var html = File.ReadAllText(DashboardWriter.Write(_results.FullPath));

        Assert.DoesNotContain("<script src", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("<link", html, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("Chart.js", html, StringComparison.Ordinal);
        Assert.DoesNotContain("/*RUNS_JSON*/", html, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1280)]
    [InlineData(390)]
    public async Task Chromium_DrawsEveryHeadlineChart_AndFitsTheWindow(int windowWidth)
    {
        var page = await HeadlessChromium.RenderAsync(DashboardWriter.Write(_results.FullPath), windowWidth);

        Assert.Null(page.Error);
        Assert.Equal(DashboardWriter.Charts.Count, page.ChartsDrawn);
        // Nothing runs off the right edge; the runs table scrolls inside its own box.
        Assert.Equal(0, page.PageOverflow);
        Assert.Contains("<div class=\"table-wrap\"><table id=\"runs\">", page.Dom, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnEmptyResultsFolder_ListsNoRun_AndSaysSoInsteadOfCharts()
    {
        using var empty = new TemporaryDirectory();

        var path = DashboardWriter.Write(empty.FullPath);
        var page = await HeadlessChromium.RenderAsync(path);

        Assert.Contains("0 runs in this folder", File.ReadAllText(path), StringComparison.Ordinal);
        Assert.Null(page.Error);
        Assert.Equal(0, page.ChartsDrawn);
        Assert.Contains("No run in this folder has this figure yet.", page.Dom, StringComparison.Ordinal);
    }

    public void Dispose() => _results.Dispose();

    private void Write(string relative, string content)
    {
        var path = Path.Combine(_results.FullPath, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, content);
    }
}
