using System.Diagnostics;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;
using RpcCompare.Runner.Reporting;
using RpcCompare.Runner.Suites;
using Spectre.Console;

namespace RpcCompare.Runner;

/// <summary>One run: start what is measured, measure every cell, write the reports, clean up.</summary>
internal sealed class ComparisonRun
{
    private readonly RunnerOptions _options;
    private readonly IAnsiConsole _console;
    private readonly List<IAsyncDisposable> _cleanup = [];

    public ComparisonRun(RunnerOptions options, IAnsiConsole console)
    {
        _options = options;
        _console = console;
    }

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var started = DateTimeOffset.UtcNow;
        var clock = Stopwatch.StartNew();
        try
        {
            var suites = SuiteCatalog.Select(_options.Suites);
            using var factory = RpcClientFactory.CreateDefault();
            var (requested, notMeasured) = ChooseBindings(factory);
            if (_options.Pin)
            {
                CpuPinning.PinSelfToCpu0();
            }

            var (endpoints, hostMode) = await StartHostAsync(requested.Where(b => b != BindingNames.InProc).ToList());
            var targets = Targets(requested, endpoints, notMeasured);
            var extraPingPongTargets = await VariantTargetsAsync(suites, requested);
            PrepareSuites(suites, endpoints);

            var workloads = suites
                .SelectMany(s => s.Workloads(s is PingPongSuite ? [.. targets, .. extraPingPongTargets] : targets))
                .ToList();
            var settings = new MeasurementSettings(_options.Trials, _options.WarmUp, _options.TrialDuration, _options.Clients);
            using var native = suites.OfType<PingPongSuite>().Any() ? NativeFloor.Build() : null;
            var (cells, refused) = await MeasureAsync(new TrialRunner(factory, settings), workloads, native, cancellationToken);

            var report = new Report(
                Report.SchemaName,
                started,
                clock.Elapsed.TotalSeconds,
                EnvironmentInfo.Capture(_options.Pin, native?.Description ?? "not measured: the pingpong suite did not run", _options.HostEndpointsFile is null),
                new RunSettings([.. suites.Select(s => s.Name)], settings.Trials, settings.WarmUp.TotalSeconds, settings.TrialDuration.TotalSeconds, settings.Clients, _options.Quick, _options.Pin, hostMode),
                [.. targets.Concat(extraPingPongTargets).Select(t => new BindingInfo(t.Label, t.Binding, t.Address, t.Configuration))],
                ReportBuilder.Measurements(cells.Cells, cells.Native),
                ReportBuilder.BreakEven(cells.Cells),
                notMeasured,
                refused);
            ConsoleReporter.Write(_console, report);
            var directory = WriteReports(report, started);
            _console.MarkupLineInterpolated($"Reports written to [bold]{directory}[/] (report.md, report.json, report.html)");
            return 0;
        }
        catch (Exception exception) when (exception is MeasurementException or InvalidOperationException or ArgumentException or NotSupportedException or IOException or TimeoutException)
        {
            _console.MarkupLineInterpolated($"[red]error:[/] {exception.Message}");
            return 1;
        }
        finally
        {
            foreach (var item in _cleanup)
            {
                await item.DisposeAsync();
            }
        }
    }

    private (IReadOnlyList<string> Requested, List<NotMeasured> NotMeasured) ChooseBindings(RpcClientFactory factory)
    {
        var notMeasured = new List<NotMeasured>();
        if (_options.Bindings is { } chosen)
        {
            foreach (var name in chosen)
            {
                BindingNames.ThrowUnlessOffered(name, factory.Bindings);
            }

            return ([.. BindingNames.All.Where(chosen.Contains)], notMeasured);
        }

        return (factory.Bindings, notMeasured);
    }

    private async Task<(IReadOnlyDictionary<string, string> Endpoints, string Mode)> StartHostAsync(List<string> networkBindings)
    {
        if (_options.HostEndpointsFile is { } file)
        {
            if (!File.Exists(file))
            {
                throw new IOException($"No endpoints file at '{file}'. Start the host with --endpoints-file first.");
            }

            return (EndpointsFile.Read(file), $"already running ({file})");
        }

        _console.MarkupLine("Starting RpcCompare.Host ...");
        var host = await HostLauncher.StartAsync(networkBindings.Count == 0 ? [BindingNames.Pipes] : networkBindings, _options.Pin);
        _cleanup.Add(host);
        return (host.Endpoints, "started by the runner as a separate process");
    }

    private static List<BindingTarget> Targets(IReadOnlyList<string> requested, IReadOnlyDictionary<string, string> endpoints, List<NotMeasured> notMeasured)
    {
        var targets = new List<BindingTarget>();
        foreach (var binding in requested)
        {
            if (!endpoints.TryGetValue(binding, out var address))
            {
                notMeasured.Add(new NotMeasured(binding, "the host does not serve it"));
            }
            else if (binding == BindingNames.InProc && !Directory.Exists(address))
            {
                notMeasured.Add(new NotMeasured(binding, $"the host's data root '{address}' is not on this machine"));
            }
            else
            {
                targets.Add(new BindingTarget(binding, binding, address, BindingConfigurations.Describe(binding)));
            }
        }

        if (targets.Count == 0)
        {
            throw new InvalidOperationException("Nothing to measure: none of the chosen bindings is reachable.");
        }

        return targets;
    }

    // Suites that need data of their own (breakeven's directories) create it in the host's data root.
    private static void PrepareSuites(IReadOnlyList<ISuite> suites, IReadOnlyDictionary<string, string> endpoints)
    {
        var dataRoot = endpoints.GetValueOrDefault(BindingNames.InProc);
        foreach (var suite in suites.OfType<BreakEvenSuite>())
        {
            if (dataRoot is null || !Directory.Exists(dataRoot))
            {
                throw new InvalidOperationException(
                    $"The breakeven suite creates its directories in the host's data root, and '{dataRoot}' is not on this machine. " +
                    "Share it (e.g. a volume, DataRoot__Path) or leave breakeven out.");
            }

            suite.Prepare(dataRoot);
        }
    }

    // The ping-pong's second dispatch variant: a second host whose socket completions run inline.
    private async Task<IReadOnlyList<BindingTarget>> VariantTargetsAsync(IReadOnlyList<ISuite> suites, IReadOnlyList<string> requested)
    {
        if (!suites.OfType<PingPongSuite>().Any() || !requested.Contains(BindingNames.Pipes) || _options.HostEndpointsFile is not null)
        {
            return [];
        }

        var host = await HostLauncher.StartAsync([BindingNames.Pipes], _options.Pin, new Dictionary<string, string> { [BindingConfigurations.InlineCompletionsVariable] = "1" });
        _cleanup.Add(host);
        return [new BindingTarget(BindingConfigurations.PipesInlineLabel, BindingNames.Pipes, host.Endpoints[BindingNames.Pipes], BindingConfigurations.PipesInline)];
    }

    private async Task<((List<CellResult> Cells, Dictionary<int, Spread> Native) Measured, List<RefusedCell> Refused)> MeasureAsync(TrialRunner runner, List<Workload> workloads, NativeFloor? native, CancellationToken cancellationToken)
    {
        var settings = runner.Settings;
        var cellSeconds = settings.WarmUp.TotalSeconds + settings.Trials * settings.TrialDuration.TotalSeconds;
        var nativeSizes = native is { IsAvailable: true } ? PingPongSuite.Sizes : [];
        var planned = (workloads.Count * cellSeconds) + (nativeSizes.Length * settings.Trials * settings.TrialDuration.TotalSeconds);
        var cells = new List<CellResult>();
        var refused = new List<RefusedCell>();
        var floor = new Dictionary<int, Spread>();
        var progress = new RunProgress(_console, planned);
        await progress.RunAsync(async report =>
        {
            for (var i = 0; i < workloads.Count; i++)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var workload = workloads[i];
                var label = $"[{i + 1}/{workloads.Count}] {workload.Suite} · {workload.Operation}{(workload.Size is { } size ? $" {size}" : "")} · {workload.Target.Label}";
                CellResult result;
                try
                {
                    result = await runner.MeasureAsync(workload, trial => report(
                        $"{label} · {(trial == 0 ? "warm-up" : $"trial {trial}/{settings.Trials}")}",
                        trial == 0 ? 0 : trial == 1 ? settings.WarmUp.TotalSeconds : settings.TrialDuration.TotalSeconds));
                }
                catch (CellRefusedException exception)
                {
                    refused.Add(new RefusedCell(workload.Suite, workload.Operation, workload.Target.Label, workload.Size, exception.Message));
                    report(null, cellSeconds);
                    progress.Completed($"{label}: refused: {exception.Message}");
                    continue;
                }

                report(null, settings.TrialDuration.TotalSeconds);
                progress.Completed($"{label}: {result.CallsPerSecond.Median:#,0} calls/s");
                cells.Add(result);
            }

            foreach (var size in nativeSizes)
            {
                report($"pingpong · native floor · {size} B", 0);
                floor[size] = native!.Measure(size, settings, _options.Pin);
                report(null, settings.Trials * settings.TrialDuration.TotalSeconds);
                progress.Completed($"pingpong · echo {size} · {ReportBuilder.NativeLabel}: {floor[size].Median:#,0} round trips/s");
            }
        });
        return ((cells, floor), refused);
    }

    private string WriteReports(Report report, DateTimeOffset started)
    {
        var directory = Path.Combine(_options.OutputRoot, started.ToString("yyyyMMdd'T'HHmmss'Z'", System.Globalization.CultureInfo.InvariantCulture));
        Directory.CreateDirectory(directory);
        File.WriteAllText(Path.Combine(directory, "report.md"), MarkdownReporter.Render(report));
        File.WriteAllText(Path.Combine(directory, "report.json"), JsonReporter.Render(report));
        File.WriteAllText(Path.Combine(directory, "report.html"), HtmlReporter.Render(report));
        return directory;
    }
}
