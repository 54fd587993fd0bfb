using System.Diagnostics;
using NBomber.Contracts.Stats;
using NBomber.CSharp;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Load.Reporting;
using RpcCompare.Load.Scenarios;
using RpcCompare.Perf.Hosting;
using Spectre.Console;

namespace RpcCompare.Load;

/// <summary>
/// One load run: start (or find) the host, run one NBomber session per binding, operation and
/// model, one after the other so no two scenarios share the machine, then write the summary.
/// </summary>
internal sealed class LoadRun
{
    private static readonly ReportFormat[] s_reportFormats = [ReportFormat.Html, ReportFormat.Md, ReportFormat.Csv, ReportFormat.Txt];
    private readonly LoadOptions _options;
    private readonly IAnsiConsole _console;

    public LoadRun(LoadOptions options, IAnsiConsole console)
    {
        _options = options;
        _console = console;
    }

    /// <summary>Runs every scenario; the results carry NBomber's own statistics as well as the summary's figures.</summary>
    public async Task<(int ExitCode, IReadOnlyList<LoadResult> Results)> RunAsync(CancellationToken cancellationToken)
    {
        var started = DateTimeOffset.UtcNow;
        var clock = Stopwatch.StartNew();
        HostLauncher? host = null;
        try
        {
            using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { ConnectTimeout = TimeSpan.FromSeconds(30) });
            var requested = ChooseBindings(factory);
            IReadOnlyDictionary<string, string> endpoints;
            if (_options.HostEndpointsFile is { } file)
            {
                endpoints = File.Exists(file)
                    ? EndpointsFile.Read(file)
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
            var plan = (from binding in requested from operation in _options.Operations from model in _options.Models select (binding, operation, model)).ToList();
            var perScenario = _options.Settings.WarmUp + _options.Settings.Duration;
            _console.MarkupLineInterpolated($"{plan.Count} NBomber scenarios of {perScenario.TotalSeconds:0.#} s each (about {plan.Count * perScenario.TotalSeconds / 60:0.#} min plus start-up).");
            // One unmeasured pass over every binding and operation first, as the runner does: the
            // host compiles every binding's code before the first scenario is measured. Without it the
            // first binding's first scenarios ran at half their rate (wcf-nettcp Ping, 8 users:
            // 6,831 calls/s after 0.5 s of warm-up, 16,451 after 3 s).
            foreach (var (binding, operation) in from binding in requested from operation in _options.Operations select (binding, operation))
            {
                cancellationToken.ThrowIfCancellationRequested();
                _console.MarkupLineInterpolated($"warm-up pass: {binding} · {operation.Name}");
                await using var pool = new ClientPool(factory, binding, endpoints[binding], operation);
                await WarmUpAsync(pool, _options.Settings.Users, _options.Settings.WarmUp);
            }

            var results = new List<LoadResult>();
            foreach (var (index, (binding, operation, model)) in plan.Index())
            {
                cancellationToken.ThrowIfCancellationRequested();
                _console.MarkupLineInterpolated($"[bold][[{index + 1}/{plan.Count}]][/] {binding} · {operation.Name} · {model.Describe(_options.Settings)}");
                // A folder per scenario: NBomber empties its report folder when a session starts.
                var result = await RunScenarioAsync(factory, binding, endpoints[binding], operation, model, Path.Combine(directory, binding, $"{operation.Name}-{model.Name()}"));
                results.Add(result);
                _console.MarkupLineInterpolated($"    {result.Ok:#,0} ok, {result.Failed:#,0} failed, {result.RequestsPerSecond:#,0.#} calls/s, p99 {result.Latency.P99:0.##} ms");
            }

            var report = new LoadReport(LoadReport.SchemaName, started, clock.Elapsed.TotalSeconds, LoadEnvironment.Capture(), _options.Settings,
                host is null ? $"already running ({_options.HostEndpointsFile})" : "started by the load command as a separate process", results);
            LoadReportWriter.Write(report, directory);
            _console.MarkupLineInterpolated($"NBomber's reports per binding and the summary (report.md, report.json) are in [bold]{directory}[/]");
            var failed = results.Sum(r => r.Failed);
            if (failed > 0)
            {
                _console.MarkupLineInterpolated($"[red]{failed:#,0} calls failed[/]; the first error of each scenario is in report.md.");
            }

            return (failed > 0 ? 1 : 0, results);
        }
        catch (Exception exception) when (exception is InvalidOperationException or ArgumentException or NotSupportedException or IOException or TimeoutException)
        {
            _console.MarkupLineInterpolated($"[red]error:[/] {exception.Message}");
            return (1, []);
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

    private async Task<LoadResult> RunScenarioAsync(RpcClientFactory factory, string binding, string address, LoadOperation operation, LoadModel model, string reportFolder)
    {
        await using var pool = new ClientPool(factory, binding, address, operation);
        string? firstError = null;
        var name = $"{operation.Name}-{model.Name()}";
        var scenario = Scenario.Create(name, async _ =>
            {
                try
                {
                    await pool.CallAsync();
                    return Response.Ok(sizeBytes: (int)operation.PayloadBytes);
                }
                catch (Exception exception)
                {
                    Interlocked.CompareExchange(ref firstError, $"{exception.GetType().Name}: {exception.Message}", null);
                    return Response.Fail(message: exception.Message);
                }
            })
            .WithLoadSimulations(model.Simulation(_options.Settings))
            .WithoutWarmUp();

        // Our own warm-up (connections opened, code paths compiled) instead of NBomber's, which
        // cost about 5 s per session on top of its duration on this machine (measured: 2 sessions
        // of 3 s took 13.1 s without it and 22.9 s with 1 s of it).
        await WarmUpAsync(pool, _options.Settings.Users, _options.Settings.WarmUp);

        // NBomber's Run blocks its caller; run it off the caller's thread so the scenario's own awaits are not starved.
        var stats = await Task.Run(() => NBomberRunner
            .RegisterScenarios(scenario)
            .WithTestSuite("rpccompare")
            .WithTestName(binding)
            .WithReportFolder(reportFolder)
            .WithReportFileName(name)
            .WithReportFormats(s_reportFormats)
            .Run());
        return LoadResult.From(binding, operation, model, model.Describe(_options.Settings), stats, pool.Created, firstError);
    }

    // Closed loops until the deadline; a failing call ends its loop, and the scenario itself then shows the failure.
    private static async Task WarmUpAsync(ClientPool pool, int concurrency, TimeSpan duration)
    {
        if (duration <= TimeSpan.Zero)
        {
            return;
        }

        var deadline = Stopwatch.GetTimestamp() + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        await Task.WhenAll(Enumerable.Range(0, concurrency).Select(async _ =>
        {
            await Task.Yield();
            try
            {
                while (Stopwatch.GetTimestamp() < deadline)
                {
                    await pool.CallAsync();
                }
            }
            catch (Exception exception) when (exception is not OutOfMemoryException)
            {
                // Reported by the measured part, which makes the same calls.
            }
        }));
    }
}
