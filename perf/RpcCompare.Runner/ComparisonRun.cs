using System.Diagnostics;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Perf.Hosting;
using RpcCompare.Perf.Reporting.Dashboard;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;
using RpcCompare.Runner.Push;
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
    private readonly Dictionary<string, HostAllocationMonitor> _monitors = new(StringComparer.Ordinal);
    private string _hostAllocations = "not measured: the pingpong suite did not run";

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
            using var factory = RunnerClients.CreateFactory();
            var (requested, notMeasured) = ChooseBindings(factory);
            if (_options.Pin)
            {
                CpuPinning.PinSelfToCpu0();
            }

            var readHostAllocations = suites.OfType<PingPongSuite>().Any();
            var (endpoints, hostMode) = await StartHostAsync(requested.Where(b => b != BindingNames.InProc).ToList(), readHostAllocations);
            var targets = Targets(requested, endpoints, notMeasured);
            var variantTargets = await VariantTargetsAsync(suites, targets, readHostAllocations, notMeasured);
            PrepareSuites(suites, endpoints);

            var workloads = suites.SelectMany(s => s.Workloads(TargetsOf(s, targets, variantTargets))).ToList();
            var settings = new MeasurementSettings(_options.Trials, _options.WarmUp, _options.TrialDuration, _options.Clients);
            using var native = suites.OfType<PingPongSuite>().Any() ? NativeFloor.Build() : null;
            var (repetitions, refused) = await MeasureAsync(new TrialRunner(factory, settings), workloads, native, cancellationToken);
            var push = suites.OfType<PushSuite>().FirstOrDefault() is { } pushSuite ? await MeasurePushAsync(factory, TargetsOf(pushSuite, targets, variantTargets)) : null;
            var pooled = Repetition.Pool(repetitions);
            var hostAllocations = await HostAllocationsAsync(pooled.Cells);

            var report = new Report(
                Report.SchemaName,
                started,
                clock.Elapsed.TotalSeconds,
                EnvironmentInfo.Capture(_options.Pin, native?.Description ?? "not measured: the pingpong suite did not run", _options.HostEndpointsFile is null, _hostAllocations),
                new RunSettings([.. suites.Select(s => s.Name)], settings.Trials, settings.WarmUp.TotalSeconds, settings.TrialDuration.TotalSeconds, settings.Clients, _options.Quick, _options.Pin, hostMode,
                    _options.Repeat, _options.NoiseThreshold),
                [.. targets.Concat(variantTargets).Concat(workloads.Select(w => w.Target)).DistinctBy(t => t.Label).Select(t => new BindingInfo(t.Label, t.Binding, t.Address, t.Configuration))],
                ReportBuilder.Measurements(pooled.Cells, pooled.Native, _options.NoiseThreshold, hostAllocations),
                ReportBuilder.BreakEven(pooled.Cells),
                notMeasured,
                refused,
                ReportBuilder.Repeatability(repetitions, _options.NoiseThreshold),
                push);
            ConsoleReporter.Write(_console, report);
            var directory = WriteReports(report, started);
            _console.MarkupLineInterpolated($"Reports written to [bold]{directory}[/] (report.md, report.json, report.html); every run side by side: [bold]{DashboardWriter.Write(_options.OutputRoot)}[/]");
            return 0;
        }
        catch (Exception exception) when (exception is MeasurementException or InvalidOperationException or ArgumentException or NotSupportedException or IOException or TimeoutException)
        {
            _console.MarkupLineInterpolated($"[red]error:[/] {exception.Message}");
            // A host that died explains a failure better than the client whose connection closed.
            foreach (var report in _cleanup.OfType<HostLauncher>().Select(h => h.ExitReport()).OfType<string>())
            {
                _console.WriteLine(report);
            }

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

    private async Task<(IReadOnlyDictionary<string, string> Endpoints, string Mode)> StartHostAsync(List<string> networkBindings, bool readAllocations)
    {
        if (_options.HostEndpointsFile is { } file)
        {
            if (!File.Exists(file))
            {
                throw new IOException($"No endpoints file at '{file}'. Start the host with --endpoints-file first.");
            }

            if (readAllocations)
            {
                _hostAllocations = "not measured: the host was started elsewhere (--host), so the runner does not know its process";
            }

            return (EndpointsFile.Read(file), $"already running ({file})");
        }

        _console.MarkupLine("Starting RpcCompare.Host ...");
        var host = await HostLauncher.StartAsync(networkBindings.Count == 0 ? [BindingNames.Pipes] : networkBindings, _options.Pin);
        _cleanup.Add(host);
        if (readAllocations)
        {
            Monitor(host);
        }

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

    /// <summary>
    /// The columns of every knob the chosen suites measure (<see cref="ISuite.Variants"/>): a
    /// server-side knob gets a second host serving the bindings it applies to, started with the
    /// knob's environment; a client-side knob gets its own client factory.
    /// </summary>
    private async Task<IReadOnlyList<BindingTarget>> VariantTargetsAsync(IReadOnlyList<ISuite> suites, IReadOnlyList<BindingTarget> targets,
        bool readAllocations, List<NotMeasured> notMeasured)
    {
        var variantTargets = new List<BindingTarget>();
        foreach (var uses in suites.SelectMany(s => s.Variants).GroupBy(u => u.Variant.Suffix))
        {
            var variant = uses.First().Variant;
            var bindings = targets.Select(t => t.Binding).Where(b => b != BindingNames.InProc && uses.Any(u => u.Bindings.Contains(b))).ToList();
            if (bindings.Count == 0)
            {
                continue;
            }

            var addresses = targets.ToDictionary(t => t.Binding, t => t.Address);
            RpcClientFactory? clientFactory = null;
            if (variant.NeedsHost)
            {
                if (_options.HostEndpointsFile is not null)
                {
                    notMeasured.AddRange(bindings.Select(b => new NotMeasured(variant.Label(b), "needs a second host with its own settings, and the host was started elsewhere (--host)")));
                    continue;
                }

                var host = await HostLauncher.StartAsync(bindings, _options.Pin, variant.HostEnvironment);
                _cleanup.Add(host);
                if (readAllocations)
                {
                    Monitor(host);
                }

                addresses = new Dictionary<string, string>(host.Endpoints);
            }
            else if (variant.CreateClientFactory is { } create)
            {
                clientFactory = create();
                _cleanup.Add(new Disposer(clientFactory));
            }

            variantTargets.AddRange(bindings.Select(b => new BindingTarget(variant.Label(b), b, addresses[b], BindingConfigurations.Describe(b, variant), Variant: variant.Suffix, ClientFactory: clientFactory)));
        }

        return variantTargets;
    }

    /// <summary>The targets a suite measures: the bindings', and those of its own knobs.</summary>
    private static IReadOnlyList<BindingTarget> TargetsOf(ISuite suite, IReadOnlyList<BindingTarget> targets, IReadOnlyList<BindingTarget> variantTargets) =>
        [.. targets, .. variantTargets.Where(t => suite.Variants.Any(u => u.Variant.Suffix == t.Variant && u.Bindings.Contains(t.Binding)))];

    private sealed class Disposer(IDisposable disposable) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            disposable.Dispose();
            return ValueTask.CompletedTask;
        }
    }

    /// <summary>
    /// Measures every row (one operation at one size) with its bindings' trials interleaved: every
    /// cell of the row is opened and warmed up, then trial 1 runs for each binding, then trial 2,
    /// each trial starting one binding later, so slow drift of the machine reaches every binding
    /// alike and trial t of two bindings ran side by side (the paired ratios rely on it); a
    /// ping-pong row's native floor takes its turn among them. With
    /// --repeat the whole selection runs again, same host, same order.
    /// </summary>
    private async Task<(List<Repetition> Repetitions, List<RefusedCell> Refused)> MeasureAsync(TrialRunner runner, List<Workload> workloads, NativeFloor? native, CancellationToken cancellationToken)
    {
        if (workloads.Count == 0)
        {
            // A push-only selection: no calls to measure, so no "0 s planned" progress line and
            // no empty repetitions for --repeat to compare.
            return ([new Repetition(1, [], [])], []);
        }

        var settings = runner.Settings;
        var trialSeconds = settings.TrialDuration.TotalSeconds;
        var cellSeconds = settings.WarmUp.TotalSeconds + settings.Trials * trialSeconds;
        int[] nativeSizes = native is { IsAvailable: true } && workloads.Any(w => w.Suite == PingPongSuite.SuiteName) ? PingPongSuite.Sizes : [];
        var rows = workloads.GroupBy(w => (w.Suite, w.Operation, w.Size)).Select(g => g.ToList()).ToList();
        var planned = (workloads.Count * settings.WarmUp.TotalSeconds)
            + (_options.Repeat * ((workloads.Count * cellSeconds) + (nativeSizes.Length * settings.Trials * trialSeconds)));
        var repetitions = new List<Repetition>();
        var refused = new List<RefusedCell>();
        var progress = new RunProgress(_console, planned);
        await progress.RunAsync(async report =>
        {
            // One unmeasured warm-up of every cell first: the host runs every binding's code before
            // any trial, so the first rows are not measured while the runtime is still compiling
            // (tiering up) the code paths of bindings measured later.
            for (var i = 0; i < workloads.Count; i++)
            {
                cancellationToken.ThrowIfCancellationRequested();
                report($"warm-up pass [{i + 1}/{workloads.Count}] {workloads[i].Suite} · {workloads[i].Operation} · {workloads[i].Target.Label}", 0);
                try
                {
                    await using var cell = await runner.OpenAsync(workloads[i]);
                }
                catch (CellRefusedException)
                {
                    // Recorded when the row is measured.
                }

                report(null, settings.WarmUp.TotalSeconds);
            }

            for (var r = 1; r <= _options.Repeat; r++)
            {
                var repetition = new Repetition(r, [], []);
                var prefix = _options.Repeat > 1 ? $"[repetition {r}/{_options.Repeat}] " : "";
                for (var i = 0; i < rows.Count; i++)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    var first = rows[i][0];
                    var rowLabel = $"{prefix}[{i + 1}/{rows.Count}] {first.Suite} · {first.Operation}{(first.Size is { } size ? $" {size}" : "")}";
                    var open = new List<TrialRunner.OpenCell>();
                    try
                    {
                        foreach (var workload in rows[i])
                        {
                            report($"{rowLabel} · {workload.Target.Label} · warm-up", 0);
                            try
                            {
                                open.Add(await runner.OpenAsync(workload));
                                report(null, settings.WarmUp.TotalSeconds);
                            }
                            catch (CellRefusedException exception)
                            {
                                // Refusal depends on the message, not the moment: record it once.
                                if (r == 1)
                                {
                                    refused.Add(new RefusedCell(workload.Suite, workload.Operation, workload.Target.Label, workload.Size, exception.Message));
                                }

                                report(null, cellSeconds);
                                progress.Completed($"{rowLabel} · {workload.Target.Label}: refused: {exception.Message}");
                            }
                        }

                        // A ping-pong row's native floor takes its turn in the rotation like a binding,
                        // so the ratio to it pairs trials that ran side by side too.
                        var nativeSize = first.Suite == PingPongSuite.SuiteName && first.Size is { } echo && nativeSizes.Contains((int)echo) ? (int?)echo : null;
                        var nativeRates = new List<double>();
                        var turns = open.Count + (nativeSize is null ? 0 : 1);
                        for (var trial = 1; trial <= settings.Trials; trial++)
                        {
                            foreach (var index in TrialOrder.For(trial, turns))
                            {
                                if (index == open.Count)
                                {
                                    report($"{rowLabel} · trial {trial}/{settings.Trials} · {ReportBuilder.NativeLabel}", 0);
                                    nativeRates.Add(native!.MeasureTrial(nativeSize!.Value, settings.TrialDuration, _options.Pin));
                                    report(null, trialSeconds);
                                    continue;
                                }

                                var cell = open[index];
                                report($"{rowLabel} · trial {trial}/{settings.Trials} · {cell.Workload.Target.Label}", 0);
                                await cell.RunTrialAsync();
                                report(null, trialSeconds);
                            }
                        }

                        if (nativeSize is { } nativeAt)
                        {
                            repetition.Native[nativeAt] = nativeRates;
                            progress.Completed($"{rowLabel} · {ReportBuilder.NativeLabel}: {Statistics.Median([.. nativeRates]):#,0} round trips/s");
                        }

                        foreach (var cell in open)
                        {
                            var result = cell.Result();
                            repetition.Cells.Add(result);
                            progress.Completed($"{rowLabel} · {cell.Workload.Target.Label}: {result.CallsPerSecond.Median:#,0} calls/s");
                        }
                    }
                    finally
                    {
                        foreach (var cell in open)
                        {
                            await cell.DisposeAsync();
                        }
                    }
                }

                repetitions.Add(repetition);
            }
        });
        return (repetitions, refused);
    }

    /// <summary>The push suite: delivery to subscribers in agent processes rather than call rates, so it runs on its own after the call suites.</summary>
    private async Task<PushResults> MeasurePushAsync(RpcClientFactory factory, IReadOnlyList<BindingTarget> targets)
    {
        var settings = PushSettings.For(_options.Quick, _options.Full, _options.MaxSubscribers);
        var pushTargets = PushSuite.Targets(factory, targets);
        PushResults? results = null;
        var progress = new RunProgress(_console, pushTargets.Count * settings.PlannedSecondsPerTarget);
        await progress.RunAsync(async report => results = await PushSuite.RunAsync(factory, pushTargets, settings, report, progress.Completed));
        return results!;
    }

    // Reads the host's runtime events for the whole run; every address it serves maps to it.
    private void Monitor(HostLauncher host)
    {
        var monitor = HostAllocationMonitor.TryStart(host.ProcessId, out var whyNot);
        if (monitor is null)
        {
            _hostAllocations = "not measured: " + whyNot;
            return;
        }

        // Cleanup runs in list order: the session must end before its host is terminated.
        _cleanup.Insert(0, monitor);
        foreach (var address in host.Endpoints.Values)
        {
            _monitors[address] = monitor;
        }

        _hostAllocations = "GC AllocationTick events of the host's runtime, read over EventPipe (Microsoft.Diagnostics.NETCore.Client) and summed over " +
            "each trial's window: exact amounts per ~100 KB allocated, so within ~100 KB per allocating thread at each end of a trial";
    }

    /// <summary>Bytes the host allocated per call during each cell's trials, for cells served by a monitored host.</summary>
    private async Task<IReadOnlyDictionary<CellResult, double>> HostAllocationsAsync(IReadOnlyList<CellResult> cells)
    {
        foreach (var monitor in _monitors.Values.Distinct())
        {
            await monitor.StopAsync();
        }

        var perCall = new Dictionary<CellResult, double>();
        foreach (var cell in cells)
        {
            if (cell.Workload.Target.Binding != BindingNames.InProc && _monitors.TryGetValue(cell.Workload.Target.Address, out var monitor) && cell.TotalCalls > 0)
            {
                perCall[cell] = (double)cell.Trials.Sum(t => monitor.AllocatedBetween(t.Window.Start, t.Window.End)) / cell.TotalCalls;
            }
        }

        return perCall;
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
