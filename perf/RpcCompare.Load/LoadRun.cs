using System.Diagnostics;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Load.Capacity;
using RpcCompare.Load.Chaos;
using RpcCompare.Load.Reporting;
using RpcCompare.Load.Scenarios;
using RpcCompare.Load.Soak;
using RpcCompare.Perf.Hosting;
using RpcCompare.Perf.Reporting.Dashboard;
using Spectre.Console;

namespace RpcCompare.Load;

/// <summary>
/// One load run: start (or find) the host, run one NBomber session per binding, operation and
/// model, one after the other so no two scenarios share the machine, then write the summary.
/// </summary>
internal sealed class LoadRun
{
    private readonly LoadOptions _options;
    private readonly IAnsiConsole _console;

    public LoadRun(LoadOptions options, IAnsiConsole console)
    {
        _options = options;
        _console = console;
    }

    /// <summary>Runs the load; the report's results carry NBomber's own statistics as well as the summary's figures (null when the run could not start).</summary>
    public async Task<(int ExitCode, LoadReport? Report)> RunAsync(CancellationToken cancellationToken)
    {
        var started = DateTimeOffset.UtcNow;
        var clock = Stopwatch.StartNew();
        HostLauncher? host = null;
        try
        {
            // A host started elsewhere may use TLS: its endpoints file names the certificate to trust.
            var hostTls = _options.HostEndpointsFile is { } hostFile && File.Exists(hostFile) ? EndpointsFile.Read(hostFile).ClientTls : null;
            using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { ConnectTimeout = TimeSpan.FromSeconds(30), Tls = hostTls });
            var requested = ChooseBindings(factory);
            IReadOnlyDictionary<string, string> endpoints;
            if (_options.HostEndpointsFile is { } file)
            {
                endpoints = File.Exists(file)
                    ? EndpointsFile.Read(file).Addresses
                    : throw new IOException($"No endpoints file at '{file}'. Start the host with --endpoints-file first.");
            }
            else
            {
                _console.MarkupLine("Starting RpcCompare.Host ...");
                host = await HostLauncher.StartAsync(requested, pinToCpu0: false);
                endpoints = host.Endpoints;
            }

            var missing = requested.Where(b => !endpoints.ContainsKey(b)).ToList();
            if (missing.Count > 0)
            {
                throw new InvalidOperationException($"The host does not serve {string.Join(", ", missing)}.");
            }

            var directory = Path.Combine(_options.OutputRoot, started.ToString("yyyyMMdd'T'HHmmss'Z'", System.Globalization.CultureInfo.InvariantCulture), "load");
            var context = new LoadContext(_options, _console, factory, requested, endpoints, host, directory);
            // One unmeasured pass over every binding and operation first, as the runner does: the
            // host compiles every binding's code before the first scenario is measured. Without it the
            // first binding's first scenarios ran at half their rate (wcf-nettcp Ping, 8 users:
            // 6,831 calls/s after 0.5 s of warm-up, 16,451 after 3 s). It makes one call per user even
            // with no warm-up: a first gRPC call (client stack compiled in this process, HTTP/2 set up)
            // outlasted a whole 1-s --quick scenario on a busy CI machine, leaving it with no call at all.
            foreach (var (binding, operation) in from binding in requested from operation in _options.Operations select (binding, operation))
            {
                cancellationToken.ThrowIfCancellationRequested();
                _console.MarkupLineInterpolated($"warm-up pass: {binding} · {operation.Name}");
                await using var pool = new ClientPool(factory, binding, endpoints[binding], operation);
                await pool.WarmUpAsync(_options.Settings.Users, _options.Settings.WarmUp, atLeastOneCall: true);
            }

            var results = _options.Mode == LoadMode.Scenarios ? await ScenarioMatrix.RunAsync(context, cancellationToken) : [];
            var capacities = _options.Mode == LoadMode.FindMax ? await CapacityRun.RunAsync(context, cancellationToken) : [];
            var soaks = _options.Mode == LoadMode.Soak ? await SoakRun.RunAsync(context, _options.Soak, cancellationToken) : [];
            var chaos = _options.Mode == LoadMode.Chaos ? await ChaosRun.RunAsync(context, _options.Chaos, cancellationToken) : null;

            var report = new LoadReport(LoadReport.SchemaName, started, clock.Elapsed.TotalSeconds, LoadEnvironment.Capture(), _options.Mode, _options.Settings,
                _options.Mode == LoadMode.FindMax ? _options.Capacity : null,
                host is null ? $"already running ({_options.HostEndpointsFile})" : "started by the load command as a separate process", results, capacities, soaks, chaos);
            LoadReportWriter.Write(report, directory);
            _console.MarkupLineInterpolated($"NBomber's reports per binding and the summary (report.md, report.json, report.html) are in [bold]{directory}[/]");
            _console.MarkupLineInterpolated($"Every run side by side: [bold]{DashboardWriter.Write(_options.OutputRoot)}[/]");
            // Calls that failed in a capacity step above the capacity are what the search looks for, not a failure of the run.
            var failed = results.Sum(r => r.Failed);
            if (failed > 0)
            {
                _console.MarkupLineInterpolated($"[red]{failed:#,0} calls failed[/]; the first error of each scenario is in report.md.");
            }

            var soaksFailed = soaks.Count(s => !s.Passed);
            if (soaksFailed > 0)
            {
                _console.MarkupLineInterpolated($"[red]{soaksFailed} of {soaks.Count} soaks failed[/]: {SoakVerdict.Criterion}.");
            }

            if (chaos is { Passed: false })
            {
                _console.MarkupLine("[red]the kill -9 test failed[/]: see report.md for what broke.");
            }

            return (failed > 0 || soaksFailed > 0 || chaos is { Passed: false } ? 1 : 0, report);
        }
        catch (Exception exception) when (exception is InvalidOperationException or ArgumentException or NotSupportedException or IOException or TimeoutException)
        {
            _console.MarkupLineInterpolated($"[red]error:[/] {exception.Message}");
            return (1, null);
        }
        finally
        {
            if (host is not null)
            {
                await host.DisposeAsync();
            }
        }
    }

    private List<string> ChooseBindings(RpcClientFactory factory)
    {
        var network = factory.Bindings.Where(b => b != BindingNames.InProc).ToList();
        if (_options.Bindings is not { } chosen)
        {
            return network;
        }

        foreach (var name in chosen)
        {
            BindingNames.ThrowUnlessOffered(name, network);
        }

        return [.. network.Where(chosen.Contains)];
    }
}
