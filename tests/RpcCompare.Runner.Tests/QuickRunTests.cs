using System.Globalization;
using System.Text.Json;
using RpcCompare.Runner.Reporting;
using RpcCompare.Testing;

namespace RpcCompare.Runner.Tests;

/// <summary>
/// The runner in --quick mode, end to end: host started as a separate process, every suite, every
/// report. Checks completeness and consistency of the reports, never a timing.
/// </summary>
[Collection(QuickRunShared.Name)]
public sealed class QuickRunTests
{
    private static readonly string[] s_bindings = QuickRunCells.Bindings;
    private static readonly string[] s_sweeps = ["ReadDirectory, entries n", "WriteAt, writes per call k"];
    private static readonly string[] s_frameworks = QuickRunCells.Frameworks;
    private static readonly string[] s_tcpBindings = ["wcf-nettcp", "wcf-http", "grpc-tcp", "fast-tcp"];
    private static readonly string[] s_secureVariants = ["tls", "mtls"];
    private readonly QuickRun _run;

    public QuickRunTests(QuickRun run)
    {
        _run = run;
    }

    [Fact]
    public void Run_ExitsZero_AndWritesAllThreeReports()
    {
        Assert.True(_run.ExitCode == 0, _run.Console);
        Assert.True(File.Exists(Path.Combine(_run.Directory, "report.md")));
        Assert.True(File.Exists(Path.Combine(_run.Directory, "report.json")));
        Assert.True(File.Exists(Path.Combine(_run.Directory, "report.html")));
    }

    [Theory]
    [MemberData(nameof(QuickRunCells.ExpectedCells), MemberType = typeof(QuickRunCells))]
    public void ReportJson_HasEveryBindingForEveryCell_WithPositiveConsistentFigures(string suite, string operation, long? size)
    {
        foreach (var binding in s_bindings)
        {
            var record = _run.Measurements.SingleOrDefault(m => Is(m, suite, operation, binding, size));
            var streamed = operation.StartsWith("stream", StringComparison.Ordinal);
            if (streamed && binding == "pipes")
            {
                // The hand-written baseline carries no Stream: no cell rather than a made-up one.
                Assert.Equal(JsonValueKind.Undefined, record.ValueKind);
                continue;
            }

            if (MayBeRefused(suite, operation, size, binding) && _run.Refused.SingleOrDefault(r => Is(r, suite, operation, binding, size)) is { ValueKind: JsonValueKind.Object } refused)
            {
                // 2.5 million records encode to far more than the 16 MiB limit on a framework: an explicit refusal is the finding.
                Assert.Contains("limit", refused.GetProperty("reason").GetString(), StringComparison.Ordinal);
                Assert.Equal(JsonValueKind.Undefined, record.ValueKind);
                continue;
            }

            Assert.True(record.ValueKind == JsonValueKind.Object, $"{suite}/{operation}/{size} over {binding} is missing");

            var rate = record.GetProperty("callsPerSecond");
            Assert.InRange(rate.GetProperty("min").GetDouble(), double.Epsilon, rate.GetProperty("median").GetDouble());
            Assert.InRange(rate.GetProperty("max").GetDouble(), rate.GetProperty("median").GetDouble(), double.MaxValue);
            var latency = record.GetProperty("latencyMicroseconds");
            Assert.InRange(latency.GetProperty("p50").GetDouble(), double.Epsilon, latency.GetProperty("p99").GetDouble());
            Assert.True(record.GetProperty("calls").GetInt64() > 0);
            Assert.Equal(2, record.GetProperty("trials").GetInt32());
            if (binding == "pipes")
            {
                // A call over a connection allocates at least the Task it returns.
                Assert.True(record.GetProperty("allocatedBytesPerCall").GetDouble() > 0);
            }

            Assert.Equal(JsonValueKind.Number, record.GetProperty("overheadShare").ValueKind);
            Assert.Equal(streamed ? JsonValueKind.Null : JsonValueKind.Number, record.GetProperty("ratioToPipes").ValueKind);
            // Paired figures: median within its own min–max, and the noise verdict beside them.
            foreach (var paired in streamed ? ["overheadShareSpread"] : new[] { "ratioToPipesSpread", "overheadShareSpread", "pipesFasterPercent" })
            {
                var spread = record.GetProperty(paired);
                Assert.InRange(spread.GetProperty("median").GetDouble(), spread.GetProperty("min").GetDouble(), spread.GetProperty("max").GetDouble());
            }

            Assert.InRange(record.GetProperty("trialSpread").GetDouble(), 0, double.MaxValue);
            Assert.Contains(record.GetProperty("noisy").ValueKind, new[] { JsonValueKind.True, JsonValueKind.False });
            if (suite == "payload")
            {
                Assert.True(record.GetProperty("megabytesPerSecond").GetProperty("median").GetDouble() > 0);
            }

            if (suite == "pingpong")
            {
                Assert.True(record.GetProperty("ratioToNative").GetDouble() > 0);
                var toNative = record.GetProperty("ratioToNativeSpread");
                Assert.InRange(toNative.GetProperty("median").GetDouble(), toNative.GetProperty("min").GetDouble(), toNative.GetProperty("max").GetDouble());
                // Read from the host's runtime events. Its resolution is ~100 KB per thread, so only the
                // largest echo (a new 248,832-byte array per reply on every binding) must show bytes in
                // a smoke run's two 0.1 s trials.
                var host = record.GetProperty("hostAllocatedBytesPerCall");
                // CPU per round trip: the runner's always; the host's read from /proc for a host the runner started.
                Assert.True(record.GetProperty("clientCpuMicrosecondsPerCall").GetDouble() > 0, $"{binding} {size}: no runner CPU time");
                var hostCpu = record.GetProperty("hostCpuMicrosecondsPerCall");
                Assert.Equal(binding == "inproc" ? JsonValueKind.Null : JsonValueKind.Number, hostCpu.ValueKind);
                if (binding == "inproc")
                {
                    Assert.Equal(JsonValueKind.Null, host.ValueKind);
                }
                else if (size == 248_832)
                {
                    Assert.True(host.GetDouble() >= 100_000, $"{binding} {size}: {host.GetDouble()} bytes per round trip read from the host");
                }
                else
                {
                    Assert.InRange(host.GetDouble(), 0, double.MaxValue);
                }
            }
        }
    }

    [Fact]
    public void ReportJson_RefusesOnlyTheRecordsThatOutgrowTheLimitOnceEncoded()
    {
        Assert.All(_run.Refused, r => Assert.True(
            MayBeRefused(r.GetProperty("suite").GetString()!, r.GetProperty("operation").GetString()!, Size(r), r.GetProperty("binding").GetString()!),
            r.ToString()));
        Assert.All(_run.Refused, r => Assert.Contains(ReportTables.RefusedCellText, File.ReadAllText(Path.Combine(_run.Directory, "report.md")), StringComparison.Ordinal));
    }

    [Fact]
    public void ReportJson_HasBothNativeFloorsOfEachSocketAtEveryPingPongSize_OneOfThemTheFloor()
    {
        foreach (var label in new[] { "native-uds", "native-uds/spin", "native-tcp", "native-tcp/spin" })
        {
            var native = _run.Measurements.Where(m => m.GetProperty("binding").GetString() == label).ToList();

            Assert.Equal([12L, 144L, 1_728L, 20_736L, 248_832L], native.Select(Size));
            // Its trials took turns with the bindings' in the same rows: as many as each binding's.
            Assert.All(native, m => Assert.Equal(2, m.GetProperty("trials").GetInt32()));
        }

        // At each size the faster floor of each socket (by median rate) is its floor, with no ratio; the other has
        // its ratio to it. Not checked below 1: the ratio is the median of per-trial ratios, which two trials of a
        // near tie can put above 1.
        foreach (var socket in new[] { "native-uds", "native-tcp" })
        {
            foreach (var size in _run.Measurements.Where(m => m.GetProperty("binding").GetString() == socket).Select(Size))
            {
                var floors = _run.Measurements.Where(m => m.GetProperty("binding").GetString()!.StartsWith(socket, StringComparison.Ordinal) && Size(m) == size).ToList();
                static bool HasRatio(JsonElement m) => m.TryGetProperty("ratioToNative", out var r) && r.ValueKind == JsonValueKind.Number;
                static double Rate(JsonElement m) => m.GetProperty("callsPerSecond").GetProperty("median").GetDouble();
                var floor = Assert.Single(floors, m => !HasRatio(m));
                var slower = Assert.Single(floors, HasRatio);
                Assert.True(Rate(floor) >= Rate(slower), $"{socket} at {size} B: the floor {Rate(floor)} is slower than {Rate(slower)}");
                Assert.True(slower.GetProperty("ratioToNative").GetDouble() > 0);
            }
        }

        Assert.Contains("built with", _run.Root.GetProperty("environment").GetProperty("nativeFloor").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public void ReportJson_HasBreakEvenCurvesForEveryNetworkBinding_WithBothThresholds()
    {
        var curves = _run.Root.GetProperty("breakEven").EnumerateArray().ToList();

        var expected = from sweep in s_sweeps
                       from binding in s_bindings.Where(b => b != "inproc")
                       select $"{sweep} / {binding}";
        Assert.Equal(expected.Order(), curves.Select(c => $"{c.GetProperty("sweep").GetString()} / {c.GetProperty("binding").GetString()}").Order());
        Assert.All(curves, c =>
        {
            Assert.True(c.GetProperty("points").GetArrayLength() >= 4);
            Assert.Equal([0.1, 0.01], c.GetProperty("thresholds").EnumerateArray().Select(t => t.GetProperty("share").GetDouble()));
        });
    }

    [Fact]
    public void Scaling_MeasuresEachStepWithThatManyClients_AndGrpcAndFastAlsoOnOneChannelOrConnection()
    {
        var scaling = _run.Measurements.Where(m => m.GetProperty("suite").GetString() == "scaling").ToList();

        Assert.All(scaling, m => Assert.Equal(Size(m), m.GetProperty("clients").GetInt32()));
        foreach (var label in new[] { "grpc-tcp/one-channel", "grpc-uds/one-channel", "fast-uds/one-connection", "fast-uds/caller-thread" })
        {
            Assert.Equal([1L, 4, 16, 64], scaling.Where(m => m.GetProperty("binding").GetString() == label).Select(m => Size(m)!.Value).Order());
        }

        var markdown = File.ReadAllText(Path.Combine(_run.Directory, "report.md"));
        Assert.Contains("| highest rate at |", markdown, StringComparison.Ordinal);
        Assert.Contains("| Ping, 64 clients |", markdown, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(QuickRunCells.ExpectedKnobs), MemberType = typeof(QuickRunCells))]
    public void Tuning_MeasuresEachKnobBesideTheProductsSetting_WithAPairedRatio(string operation, long clients, string binding, string variant)
    {
        var row = _run.Measurements.Where(m => m.GetProperty("suite").GetString() == "tuning" && m.GetProperty("operation").GetString() == operation && Size(m) == clients).ToList();
        var product = row.Single(m => m.GetProperty("binding").GetString() == binding);
        var knob = row.Single(m => m.GetProperty("binding").GetString() == $"{binding}/{variant}");

        Assert.Equal(JsonValueKind.Null, product.GetProperty("variant").ValueKind);
        Assert.Equal(variant, knob.GetProperty("variant").GetString());
        Assert.All(new[] { product, knob }, m => Assert.Equal(clients, m.GetProperty("clients").GetInt32()));
        var ratio = knob.GetProperty("ratioToBindingSpread");
        Assert.InRange(ratio.GetProperty("median").GetDouble(), ratio.GetProperty("min").GetDouble(), ratio.GetProperty("max").GetDouble());
        Assert.InRange(ratio.GetProperty("min").GetDouble(), double.Epsilon, double.MaxValue);
        var configuration = _run.Root.GetProperty("bindings").EnumerateArray().Single(b => b.GetProperty("label").GetString() == $"{binding}/{variant}").GetProperty("configuration").GetString();
        Assert.Contains($"Variant {variant}:", configuration, StringComparison.Ordinal);
        Assert.Contains($"| {operation}, {clients} client{(clients == 1 ? "" : "s")} | {binding} |", File.ReadAllText(Path.Combine(_run.Directory, "report.md")), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("ops", "Ping", null)]
    [InlineData("ops", "ReadDirectory", null)]
    [InlineData("pingpong", "echo", 12L)]
    [InlineData("pingpong", "echo", 248_832L)]
    public void TlsAndMutualTls_AreMeasuredBesideEachTcpBinding_WithAPairedRatio(string suite, string operation, long? size)
    {
        foreach (var (binding, variant) in from binding in s_tcpBindings from variant in s_secureVariants select (binding, variant))
        {
            var secure = _run.Measurements.Single(m => Is(m, suite, operation, $"{binding}/{variant}", size));

            Assert.Equal(variant, secure.GetProperty("variant").GetString());
            Assert.InRange(secure.GetProperty("ratioToBindingSpread").GetProperty("min").GetDouble(), double.Epsilon, double.MaxValue);
            Assert.Contains(variant == "tls" ? "TLS on" : "mutual TLS", _run.Root.GetProperty("bindings").EnumerateArray()
                .Single(b => b.GetProperty("label").GetString() == $"{binding}/{variant}").GetProperty("configuration").GetString(), StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("spin", "1,000 µs")]
    [InlineData("no-spin", "= 0 instead")]
    [InlineData("caller-thread", "TaskCalls = OnCallerThread instead of Multiplexed")]
    [InlineData("reflection", "GeneratedCode = false: the reflection path")]
    public void FastUdsKnobs_AreMeasuredBesideIt_AtEveryPingPongSize_WithTheirCpuCost(string variant, string setting)
    {
        foreach (var size in new long[] { 12, 144, 1_728, 20_736, 248_832 })
        {
            var mode = _run.Measurements.Single(m => Is(m, "pingpong", "echo", $"fast-uds/{variant}", size));

            Assert.Equal(variant, mode.GetProperty("variant").GetString());
            Assert.InRange(mode.GetProperty("ratioToBindingSpread").GetProperty("min").GetDouble(), double.Epsilon, double.MaxValue);
            Assert.True(mode.GetProperty("hostCpuMicrosecondsPerCall").ValueKind == JsonValueKind.Number, $"fast-uds/{variant} {size}: host CPU not read");
        }

        Assert.Contains(setting, _run.Root.GetProperty("bindings").EnumerateArray()
            .Single(b => b.GetProperty("label").GetString() == $"fast-uds/{variant}").GetProperty("configuration").GetString(), StringComparison.Ordinal);
        Assert.Contains("## pingpong: CPU µs per round trip, runner + host", File.ReadAllText(Path.Combine(_run.Directory, "report.md")), StringComparison.Ordinal);
    }

    [Fact]
    public void ReportJson_RecordsEnvironmentSettingsAndUnmeasuredBindings()
    {
        var environment = _run.Root.GetProperty("environment");
        var settings = _run.Root.GetProperty("settings");

        Assert.Equal("rpccompare-report/2", _run.Root.GetProperty("schema").GetString());
        Assert.False(string.IsNullOrWhiteSpace(environment.GetProperty("cpuModel").GetString()));
        Assert.True(environment.GetProperty("logicalCpus").GetInt32() > 0);
        Assert.StartsWith(".NET", environment.GetProperty("dotnet").GetString(), StringComparison.Ordinal);
        Assert.False(environment.GetProperty("pinned").GetBoolean());
        Assert.StartsWith("GC AllocationTick events", environment.GetProperty("hostAllocations").GetString(), StringComparison.Ordinal);
        // The host's runtimeconfig raises the threshold (large messages die in gen0); the runner here is this test process.
        Assert.Equal("LOHThreshold=1,048,576 B", environment.GetProperty("hostGc").GetProperty("lohThreshold").GetString());
        Assert.Equal(string.Create(CultureInfo.InvariantCulture, $"LOHThreshold={GC.GetConfigurationVariables()["LOHThreshold"]:N0} B (runtime default)"),
            environment.GetProperty("runnerGc").GetProperty("lohThreshold").GetString());
        Assert.Contains("\"System.GC.LOHThreshold\": 1048576", File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "RpcCompare.Runner.runtimeconfig.json")), StringComparison.Ordinal);
        Assert.Equal(["ops", "shapes", "payload", "pingpong", "breakeven", "scaling", "tuning", "push"], settings.GetProperty("suites").EnumerateArray().Select(s => s.GetString()));
        Assert.True(settings.GetProperty("quick").GetBoolean());
        Assert.Empty(_run.Root.GetProperty("notMeasured").EnumerateArray());
        string[] variants =
        [
            "grpc-tcp/protobuf-net.Grpc", "grpc-uds/protobuf-net.Grpc", "grpc-tcp/ServiceModel.Grpc",
            "wcf-nettcp/tls", "wcf-http/tls", "grpc-tcp/tls", "fast-tcp/tls", "wcf-nettcp/mtls", "wcf-http/mtls", "grpc-tcp/mtls", "fast-tcp/mtls", "fast-uds/reflection",
            "wcf-nettcp/telemetry", "grpc-tcp/telemetry", "fast-uds/telemetry", "pipes/telemetry",
            .. QuickRunCells.InlineIoBindings.Select(b => $"{b}/inline-io"),
            "fast-uds/spin", "fast-uds/no-spin", "fast-uds/caller-thread",
            .. s_frameworks.Take(3).Select(b => $"{b}/per-session"),
            .. s_frameworks.Take(3).Select(b => $"{b}/serialized"),
            "grpc-tcp/one-connection", "grpc-uds/one-connection",
            "grpc-tcp/streams-raised", "grpc-uds/streams-raised",
            "grpc-tcp/one-channel", "grpc-uds/one-channel", "fast-uds/one-connection",
        ];
        Assert.Equal([.. s_bindings, .. variants], _run.Root.GetProperty("bindings").EnumerateArray().Select(b => b.GetProperty("label").GetString()));
        Assert.All(_run.Root.GetProperty("bindings").EnumerateArray(), b => Assert.False(string.IsNullOrWhiteSpace(b.GetProperty("configuration").GetString())));
    }

    [Fact]
    public void ReportHtml_IsSelfContained_AndHasEverySuite()
    {
        var html = File.ReadAllText(Path.Combine(_run.Directory, "report.html"));

        foreach (var suite in new[] { "ops", "shapes", "payload", "pingpong", "breakeven", "scaling", "tuning", "push" })
        {
            Assert.Contains($"<section id=\"suite-{suite}\">", html, StringComparison.Ordinal);
            Assert.Contains($"<canvas data-chart=\"{suite}\">", html, StringComparison.Ordinal);
        }

        Assert.DoesNotContain("<script src", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("<link", html, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("Chart.js", html, StringComparison.Ordinal);
        Assert.DoesNotContain("/*REPORT_JSON*/", html, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1280)]
    [InlineData(390)]
    public async Task ReportHtml_Chromium_DrawsEveryChart_AndFitsTheWindow(int windowWidth)
    {
        var path = Path.Combine(_run.Directory, "report.html");
        var html = File.ReadAllText(path);
        var canvases = System.Text.RegularExpressions.Regex.Count(html, "<canvas data-chart=");

        var page = await HeadlessChromium.RenderAsync(path, windowWidth);

        Assert.Null(page.Error);
        Assert.Equal(canvases, page.ChartsDrawn);
        // Nothing runs off the right edge: every table scrolls inside its own box, so all its columns can be reached.
        Assert.Equal(0, page.PageOverflow);
        Assert.Equal(System.Text.RegularExpressions.Regex.Count(html, "<table>"), System.Text.RegularExpressions.Regex.Count(html, "<div class=\"table-wrap\"><table>"));
        // inproc's millions of calls/s stay off the bindings' shared axis, given in a note instead.
        Assert.Contains("inproc (a direct call, no transport) is left off this chart", page.Dom, StringComparison.Ordinal);
    }

    [Fact]
    public void Dashboard_IsRewritten_AndListsTheRun()
    {
        var index = File.ReadAllText(Path.Combine(Path.GetDirectoryName(_run.Directory)!, "index.html"));

        Assert.Contains($"<tr data-run=\"{Path.GetFileName(_run.Directory)}\">", index, StringComparison.Ordinal);
        Assert.Contains("<b>Ping calls/s</b>: ", index, StringComparison.Ordinal);
    }

    [Fact]
    public void ReportMarkdownAndConsole_HaveATableForEverySuite()
    {
        var markdown = File.ReadAllText(Path.Combine(_run.Directory, "report.md"));

        foreach (var title in new[] { "ops: calls per second", "ops: ratio to pipes", "shapes: calls per second", "payload: MB/s", "pingpong: round trips per second", "breakeven: work per call", "scaling: calls per second by concurrent clients", "tuning: each knob against the product's setting",
            "push: broadcast, the largest M", "push: broadcast steps", "push: collaboration, publish-to-receive latency" })
        {
            Assert.Contains("## " + title, markdown, StringComparison.Ordinal);
            Assert.Contains(title, _run.Console, StringComparison.Ordinal);
        }

        // The 2009 table's shape: each framework binding's rate with how much faster the raw pipe is.
        Assert.Matches(@"\| Ping \| [\d,]+ \(pipes [+-][\d,]+%\)", markdown);
        Assert.Contains("Noisy cells", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("Repeatability", markdown, StringComparison.Ordinal);
        Assert.Equal(JsonValueKind.Null, _run.Root.GetProperty("repeatability").ValueKind);
    }

    // 10 MB of records encoded as XML or protobuf outgrow the 16 MiB limit; the pipes baseline's own encoding does not.
    private static bool MayBeRefused(string suite, string operation, long? size, string binding) =>
        suite == "payload" && operation == "records" && size == 10_000_000 && (s_frameworks.Contains(binding) || binding is "fast-uds" or "fast-tcp");

    private static bool Is(JsonElement record, string suite, string operation, string binding, long? size) =>
        record.GetProperty("suite").GetString() == suite && record.GetProperty("operation").GetString() == operation &&
        record.GetProperty("binding").GetString() == binding && Size(record) == size;

    private static long? Size(JsonElement record) =>
        record.GetProperty("size").ValueKind == JsonValueKind.Null ? null : record.GetProperty("size").GetInt64();

    public sealed class QuickRun : RunnerRun
    {
        protected override string[] Arguments => ["--quick"];
    }
}
