using System.Diagnostics;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Load.Capacity;
using RpcCompare.Load.Chaos;
using RpcCompare.Load.Reporting;
using RpcCompare.Load.Scenarios;
using RpcCompare.Load.Soak;
using RpcCompare.Perf.Hosting;
using RpcCompare.Perf.Hosting.Security;
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
        var directory = Path.Combine(_options.OutputRoot, started.ToString("yyyyMMdd'T'HHmmss'Z'", System.Globalization.CultureInfo.InvariantCulture), "load");
        var results = new List<LoadResult>();
        var capacities = new List<CapacityResult>();
        IReadOnlyList<SoakResult> soaks = [];
        ChaosResult? chaos = null;
        try
        {
            // One pass per security mode (--security), each against a host of its own, one after the
            // other: tls and mtls rows sit beside the plaintext ones of the same run.
            foreach (var security in _options.Security)
            {
                await using var pass = await StartPassAsync(security, directory);
                var context = pass.Context;
                // One unmeasured pass over every binding and operation first, as the runner does: the
                // host compiles every binding's code before the first scenario is measured. Without it the
                // first binding's first scenarios ran at half their rate (wcf-nettcp Ping, 8 users:
                // 6,831 calls/s after 0.5 s of warm-up, 16,451 after 3 s). It makes one call per user even
                // with no warm-up: a first gRPC call (client stack compiled in this process, HTTP/2 set up)
                // outlasted a whole 1-s --quick scenario on a busy CI machine, leaving it with no call at all.
                foreach (var (binding, operation) in from binding in context.Bindings from operation in _options.Operations select (binding, operation))
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    _console.MarkupLineInterpolated($"warm-up pass: {context.Label(binding)} · {operation.Name}");
                    await using var pool = new ClientPool(context.Factory, binding, context.Endpoints[binding], operation);
                    await pool.WarmUpAsync(_options.Settings.Users, _options.Settings.WarmUp, atLeastOneCall: true);
                }

                results.AddRange(_options.Mode == LoadMode.Scenarios ? await ScenarioMatrix.RunAsync(context, cancellationToken) : []);
                capacities.AddRange(_options.Mode == LoadMode.FindMax ? await CapacityRun.RunAsync(context, cancellationToken) : []);
                soaks = _options.Mode == LoadMode.Soak ? await SoakRun.RunAsync(context, _options.Soak, cancellationToken) : soaks;
                chaos = _options.Mode == LoadMode.Chaos ? await ChaosRun.RunAsync(context, _options.Chaos, cancellationToken) : chaos;
            }

            var report = new LoadReport(LoadReport.SchemaName, started, clock.Elapsed.TotalSeconds, LoadEnvironment.Capture(), _options.Mode, _options.Settings,
                _options.Mode == LoadMode.FindMax ? _options.Capacity : null,
                _options.HostEndpointsFile is { } hostFile ? $"already running ({hostFile})" : "started by the load command as a separate process" + SecurityNote, results, capacities, soaks, chaos);
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
    }

    // The modes a run measured, for the report's host line: one per mode, each a host of its own.
    private string SecurityNote => _options.Security is [var only] && only == BenchSecurity.Plaintext
        ? ""
        : $" per security mode ({string.Join(", ", _options.Security.Select(m => m.Name))}; TLS with the measuring tools' own certificates)";

    /// <summary>
    /// The host and clients of one security mode: the host the load command starts with that mode's
    /// settings, or the one --host names (secured as its endpoints file says).
    /// </summary>
    private async Task<LoadPass> StartPassAsync(BenchSecurity security, string directory)
    {
        // A host started elsewhere may use TLS: its endpoints file names the certificate to trust.
        var hostEndpoints = _options.HostEndpointsFile is { } file
            ? File.Exists(file) ? EndpointsFile.Read(file) : throw new IOException($"No endpoints file at '{file}'. Start the host with --endpoints-file first.")
            : null;
        var tls = hostEndpoints is not null ? hostEndpoints.ClientTls : security.PrepareClient();
        var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { ConnectTimeout = TimeSpan.FromSeconds(30), Tls = tls });
        HostLauncher? host = null;
        try
        {
            var requested = ChooseBindings(factory, security);
            if (hostEndpoints is null)
            {
                _console.MarkupLineInterpolated($"Starting RpcCompare.Host ({security.Name}) ...");
                host = await HostLauncher.StartAsync(requested, CpuPlacement.None, security.HostEnvironment);
            }

            var endpoints = hostEndpoints?.Addresses ?? host!.Endpoints;
            var missing = requested.Where(b => !endpoints.ContainsKey(b)).ToList();
            if (missing.Count > 0 && hostEndpoints is not null && _options.Bindings is null)
            {
                // Without --bindings, a host started elsewhere is loaded on what it serves.
                _console.MarkupLineInterpolated($"Not loaded: {string.Join(", ", missing)} (the host does not serve them).");
                requested = [.. requested.Where(endpoints.ContainsKey)];
            }
            else if (missing.Count > 0)
            {
                throw new InvalidOperationException($"The host does not serve {string.Join(", ", missing)}.");
            }

            return new LoadPass(new LoadContext(_options, _console, factory, requested, endpoints, host, directory, security), factory, host);
        }
        catch
        {
            if (host is not null)
            {
                await host.DisposeAsync();
            }

            factory.Dispose();
            throw;
        }
    }

    private List<string> ChooseBindings(RpcClientFactory factory, BenchSecurity security)
    {
        var network = factory.Bindings.Where(b => b != BindingNames.InProc).ToList();
        if (_options.Bindings is { } chosen)
        {
            foreach (var name in chosen)
            {
                BindingNames.ThrowUnlessOffered(name, network);
            }

            network = [.. network.Where(chosen.Contains)];
        }

        if (security == BenchSecurity.Plaintext)
        {
            return network;
        }

        // TLS is for the TCP bindings; the Unix-socket ones check the peer's user instead.
        var secured = network.Where(BenchSecurity.TcpBindings.Contains).ToList();
        return secured.Count > 0
            ? secured
            : throw new ArgumentException($"--security {security.Name} applies to the TCP bindings ({string.Join(", ", BenchSecurity.TcpBindings)}); none of the bindings chosen is one.");
    }

    /// <summary>One security mode's context, and what ends with it: its client factory and the host started for it.</summary>
    private sealed record LoadPass(LoadContext Context, RpcClientFactory Factory, HostLauncher? Host) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            Factory.Dispose();
            if (Host is not null)
            {
                await Host.DisposeAsync();
            }
        }
    }
}
