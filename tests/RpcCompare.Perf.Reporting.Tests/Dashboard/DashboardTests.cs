using RpcCompare.Perf.Reporting.Dashboard;
using RpcCompare.Testing;

namespace RpcCompare.Perf.Reporting.Tests.Dashboard;

/// <summary>
/// results/index.html over a results folder holding a runner run, a push run, a load run of each mode
/// (scenarios, capacity search, soak, kill -9) and a broken report: what it lists, what it links, the
/// headline each kind of run contributes, and that Chromium draws its charts from disk.
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
                { "suite": "ops", "operation": "ReadDirectory", "binding": "pipes", "variant": null, "callsPerSecond": { "median": 5000.0 }, "overheadShareSpread": { "median": 0.228 } },
                { "suite": "ops", "operation": "ReadDirectory", "binding": "inproc", "variant": null, "callsPerSecond": { "median": 6500.0 }, "overheadShareSpread": { "median": 0.0 } }
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
        Directory.CreateDirectory(Path.Combine(_results.FullPath, "20261106T000000Z/load/pipes/soak"));
        Write("20261103T000000Z/report.json", "{ not json");
        Write("20261104T000000Z/report.json", """
            {
              "schema": "rpccompare-report/2", "startedUtc": "2026-11-04T00:00:00+00:00", "durationSeconds": 4000,
              "environment": { "cpuModel": "Test CPU", "logicalCpus": 2, "commit": "push0001" },
              "settings": { "suites": ["push"], "quick": false },
              "measurements": [],
              "push": {
                "broadcast": [
                  { "target": { "label": "wcf-nettcp/duplex" }, "maxSubscribers": 6500, "reachedCeiling": false },
                  { "target": { "label": "pipes/frames" }, "maxSubscribers": 10000, "reachedCeiling": true },
                  { "target": { "label": "grpc-tcp/multiplexed" }, "maxSubscribers": null, "reachedCeiling": false }
                ],
                "collaboration": [
                  { "target": { "label": "pipes/frames" }, "row": { "rooms": 2000, "members": 2, "intervalSeconds": 1 }, "expected": 200000, "received": 200000,
                    "latency": { "mean": 1.84, "p99": 12.5 }, "failure": null },
                  { "target": { "label": "wcf-nettcp/duplex" }, "row": { "rooms": 2000, "members": 2, "intervalSeconds": 1 }, "expected": 200000, "received": 199000,
                    "latency": { "mean": 40.26, "p99": 310 }, "failure": "lost receipts" },
                  { "target": { "label": "grpc-tcp/multiplexed" }, "row": { "rooms": 2000, "members": 2, "intervalSeconds": 1 }, "expected": 200000, "received": 0,
                    "latency": null, "failure": "refused" }
                ]
              }
            }
            """);
        Write("20261105T000000Z/load/report.json", """
            {
              "schema": "rpccompare-load/2", "startedUtc": "2026-11-05T00:00:00+00:00", "durationSeconds": 120,
              "environment": { "machine": "Test CPU", "logicalCpus": 2, "commit": "scen0001" },
              "mode": "Scenarios",
              "results": [
                { "binding": "pipes", "operation": "ping", "model": "closed", "ok": 300000, "failed": 0, "requestsPerSecond": 30000, "latency": { "p99": 0.61 } },
                { "binding": "pipes", "operation": "ping", "model": "open", "ok": 60000, "failed": 0, "requestsPerSecond": 1000, "latency": { "p99": 0.2 } },
                { "binding": "grpc-tcp", "operation": "ping", "model": "closed", "ok": 100000, "failed": 7, "requestsPerSecond": 10000, "latency": { "p99": 2.5 } },
                { "binding": "grpc-uds", "operation": "ping", "model": "closed", "ok": 0, "failed": 50, "requestsPerSecond": 0, "latency": { "p99": 0 } },
                { "binding": "grpc-tcp", "operation": "echo-100kB", "model": "closed", "ok": 100, "failed": 0, "requestsPerSecond": 50, "latency": { "p99": 40 } }
              ]
            }
            """);
        Write("20261106T000000Z/load/report.json", """
            {
              "schema": "rpccompare-load/2", "startedUtc": "2026-11-06T00:00:00+00:00", "durationSeconds": 1800,
              "environment": { "machine": "Test CPU", "logicalCpus": 2, "commit": "soak0001" },
              "mode": "Soak", "results": [],
              "soaks": [
                { "binding": "pipes", "rate": 1000, "ok": 12000, "latency": { "p99": 0.42 }, "problems": [] },
                { "binding": "wcf-nettcp", "rate": 1000, "ok": 12000, "latency": { "p99": 3.1 }, "problems": ["the heap grew", "threads grew"] },
                { "binding": "grpc-uds", "rate": 1000, "ok": 0, "latency": { "p99": 0 }, "problems": ["no call succeeded"] }
              ]
            }
            """);
        Write("20261107T000000Z/load/report.json", """
            {
              "schema": "rpccompare-load/2", "startedUtc": "2026-11-07T00:00:00+00:00", "durationSeconds": 60,
              "environment": { "machine": "Test CPU", "logicalCpus": 2, "commit": "chaos001" },
              "mode": "Chaos", "results": [],
              "chaos": {
                "killedAtSeconds": 10, "restartSeconds": 1.2, "sameAddresses": true,
                "bindings": [
                  { "binding": "pipes", "ok": 5000, "failed": 1, "recoverySeconds": 1.234, "writes": { "lost": 0 } },
                  { "binding": "grpc-uds", "ok": 10, "failed": 420, "recoverySeconds": null, "writes": { "lost": 2 } }
                ]
              }
            }
            """);
    }

    [Fact]
    public void ListsEveryRun_WithDateMachineCommitAndHeadlines()
    {
        var html = File.ReadAllText(DashboardWriter.Write(_results.FullPath));

        Assert.Contains("<tr data-run=\"20261101T100000Z\"><td>2026-11-01 10:00:00</td><td>runner</td><td>suites: ops, payload (--quick)</td><td>Test CPU, 2 CPUs</td><td><code>abc123def456</code></td>", html, StringComparison.Ordinal);
        Assert.Contains("<tr data-run=\"20261102T120000Z/load\"><td>2026-11-02 12:00:00</td><td>load</td><td>load: capacity search (--find-max)</td><td>Test CPU, 2 CPUs</td><td><code>fedcba987654-dirty</code></td>", html, StringComparison.Ordinal);
        Assert.Contains("<b>Ping calls/s</b>: pipes: 29,528; grpc-uds: 14,894</div>", html, StringComparison.Ordinal);
        Assert.Contains("<b>ReadDirectory overhead</b>: pipes: 22.8 %</div>", html, StringComparison.Ordinal);
        Assert.Contains("<b>Ping capacity/s</b>: pipes: 22,000; grpc-uds: 12,000</div>", html, StringComparison.Ordinal);
        Assert.Contains("6 runs in this folder", html, StringComparison.Ordinal);
    }

    [Fact]
    public void APushRun_ShowsBroadcastMAndCollaborationLatency_PerPushVariant()
    {
        var html = File.ReadAllText(DashboardWriter.Write(_results.FullPath));

        Assert.Contains("<td>runner</td><td>suites: push</td>", html, StringComparison.Ordinal);
        Assert.Contains("<b>Broadcast max M</b>: wcf-nettcp/duplex: 6,500; pipes/frames: ≥ 10,000; grpc-tcp/multiplexed: none held</div>", html, StringComparison.Ordinal);
        // WebUtility.HtmlEncode writes × as &#215;.
        Assert.Contains("<b>Collaboration latency</b>: pipes/frames, 2,000 &#215; 2 at 1 s: 1.8 ms, p99 12.5 ms; " +
            "wcf-nettcp/duplex, 2,000 &#215; 2 at 1 s: 40.3 ms, p99 310.0 ms, 199,000 of 200,000 received, lost receipts; " +
            "grpc-tcp/multiplexed, 2,000 &#215; 2 at 1 s: nothing received, refused</div>", html, StringComparison.Ordinal);
        var push = Run("20261104T000000Z");
        Assert.Equal(6500, push.Figures["broadcastMax"]["wcf-nettcp/duplex"].Value);
        Assert.Null(push.Figures["broadcastMax"]["grpc-tcp/multiplexed"].Value);
        Assert.Equal(1.84, push.Figures["collaborationLatency"]["pipes/frames, 2,000 × 2 at 1 s"].Value);
        Assert.Null(push.Figures["collaborationLatency"]["grpc-tcp/multiplexed, 2,000 × 2 at 1 s"].Value);
    }

    [Fact]
    public void EveryLoadMode_ShowsItsHeadline_PerBinding()
    {
        var html = File.ReadAllText(DashboardWriter.Write(_results.FullPath));

        // Scenarios: the closed model's Ping only (the open model's rate is the command line's).
        Assert.Contains("<td>load: closed and open model scenarios</td>", html, StringComparison.Ordinal);
        Assert.Contains("<b>Ping throughput/s, closed model</b>: pipes: 30,000 (p99 0.61 ms); grpc-tcp: 10,000 (p99 2.5 ms), 7 failed; grpc-uds: 0, 50 failed</div>", html, StringComparison.Ordinal);
        Assert.Contains("<b>Soak p99</b>: pipes: p99 0.42 ms at 1,000/s per operation, passed; wcf-nettcp: p99 3.1 ms at 1,000/s per operation, 2 problems; grpc-uds: no successful call at 1,000/s per operation, 1 problem</div>", html, StringComparison.Ordinal);
        Assert.Contains("<b>Recovery after kill -9</b>: pipes: 1.23 s, 1 failed call; grpc-uds: never recovered, 420 failed calls, 2 acknowledged writes lost</div>", html, StringComparison.Ordinal);
        Assert.Equal(30000, Run("20261105T000000Z/load").Figures["throughput"]["pipes"].Value);
        Assert.Equal(3.1, Run("20261106T000000Z/load").Figures["soakP99"]["wcf-nettcp"].Value);
        // NBomber's latency of no successful call is zeros: not the best p99, no value.
        Assert.Null(Run("20261106T000000Z/load").Figures["soakP99"]["grpc-uds"].Value);
        Assert.Contains("(p99", Run("20261105T000000Z/load").Figures["throughput"]["pipes"].Text, StringComparison.Ordinal);
        Assert.DoesNotContain("p99", Run("20261105T000000Z/load").Figures["throughput"]["grpc-uds"].Text, StringComparison.Ordinal);
        Assert.Null(Run("20261107T000000Z/load").Figures["recovery"]["grpc-uds"].Value);
        Assert.Equal(["capacity"], Run("20261102T120000Z/load").Figures.Keys);
    }

    [Fact]
    public async Task AHeadlineWithNothingToPlot_SaysSo_InsteadOfEmptyAxes()
    {
        using var folder = new TemporaryDirectory();
        var report = Path.Combine(folder.FullPath, "20261107T000000Z", "load");
        Directory.CreateDirectory(report);
        File.WriteAllText(Path.Combine(report, "report.json"), """
            {
              "schema": "rpccompare-load/2", "startedUtc": "2026-11-07T00:00:00+00:00", "durationSeconds": 60,
              "environment": { "machine": "Test CPU", "logicalCpus": 2 }, "mode": "Chaos", "results": [],
              "chaos": { "bindings": [ { "binding": "grpc-uds", "ok": 0, "failed": 420, "recoverySeconds": null } ] }
            }
            """);

        var page = await HeadlessChromium.RenderAsync(DashboardWriter.Write(folder.FullPath));

        Assert.Null(page.Error);
        Assert.Equal(0, page.ChartsDrawn);
        Assert.Contains("No run here has a value to plot for this figure: the table says why.", page.Dom, StringComparison.Ordinal);
        Assert.Contains("grpc-uds: never recovered", page.Dom, StringComparison.Ordinal);
    }

    [Fact]
    public void ChartsOnlyTheHeadlinesSomeRunHas()
    {
        using var runnerOnly = new TemporaryDirectory();
        var report = Path.Combine(runnerOnly.FullPath, "20261101T100000Z");
        Directory.CreateDirectory(report);
        File.Copy(Path.Combine(_results.FullPath, "20261101T100000Z", "report.json"), Path.Combine(report, "report.json"));

        var html = File.ReadAllText(DashboardWriter.Write(runnerOnly.FullPath));

        Assert.Contains("data-chart=\"emptyCallRate\"", html, StringComparison.Ordinal);
        Assert.Contains("data-chart=\"overheadShare\"", html, StringComparison.Ordinal);
        Assert.DoesNotContain("data-chart=\"capacity\"", html, StringComparison.Ordinal);
        Assert.Equal(2, html.Split("<canvas data-chart=").Length - 1);
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
        Assert.DoesNotContain("<a href=\"20261102T120000Z/load/grpc-uds/\">", html, StringComparison.Ordinal);
        // A soak's NBomber reports are under <binding>/soak.
        Assert.Contains("<a href=\"20261106T000000Z/load/pipes/\">NBomber: pipes</a>", html, StringComparison.Ordinal);
    }

    [Fact]
    public void NamesAReportItCannotRead_AndListsTheRest()
    {
        var (runs, unreadable) = RunCatalog.Read(_results.FullPath);

        Assert.Equal(["20261101T100000Z", "20261102T120000Z/load", "20261104T000000Z", "20261105T000000Z/load", "20261106T000000Z/load", "20261107T000000Z/load"], runs.Select(r => r.Id));
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
        Assert.Equal(Headlines.All.Count, page.ChartsDrawn);
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
        Assert.Contains("No run in this folder has a headline figure yet.", page.Dom, StringComparison.Ordinal);
    }

    public void Dispose() => _results.Dispose();

    private RunSummary Run(string id) => RunCatalog.Read(_results.FullPath).Runs.Single(r => r.Id == id);

    private void Write(string relative, string content)
    {
        var path = Path.Combine(_results.FullPath, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, content);
    }
}
