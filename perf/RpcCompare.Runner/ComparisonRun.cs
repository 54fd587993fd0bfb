using System.Diagnostics;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Bindings.ContractAssemblies;
using RpcCompare.Client;
using RpcCompare.Description;
using RpcCompare.Perf.Hosting;
using RpcCompare.Perf.Reporting.Dashboard;
using RpcCompare.Runner.Contracts;
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
    private readonly HostAllocationTracker _hostAllocations = new();
    // Address -> the process of a host this run started, whose CPU time each trial reads.
    private readonly Dictionary<string, int> _hostProcesses = new(StringComparer.Ordinal);

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
            var contracts = _options.Contracts is { } path ? new ContractsSuite(ContractWorkloads.Load(path)) : null;
            var suites = SuiteCatalog.Select(_options.Suites, contracts);
            // A host started elsewhere may use TLS: its endpoints file names the certificate to trust.
            var hostTls = _options.HostEndpointsFile is { } hostFile && File.Exists(hostFile) ? EndpointsFile.Read(hostFile).ClientTls : null;
            using var factory = RunnerClients.CreateFactory(hostTls);
            var (requested, notMeasured) = ChooseBindings(factory);
            if (_options.Pin != CpuPlacement.None)
            {
                CpuPinning.PinSelf(CpuPinning.RunnerCpu);
            }

            // The built-in suites share one host; a team's contracts get their own (ContractsHost).
            var readHostAllocations = suites.OfType<PingPongSuite>().Any();
            var builtIn = suites.Any(s => s is not ContractsSuite);
            var (endpoints, hostMode) = builtIn
                ? await StartHostAsync(requested.Where(b => b != BindingNames.InProc).ToList(), readHostAllocations)
                : (new Dictionary<string, string>(), "started by the runner as a separate process");
            var targets = builtIn ? Targets(requested, endpoints, notMeasured) : [];
            var variantTargets = await VariantTargetsAsync(suites, targets, readHostAllocations, notMeasured, hostTls);
            var contractTargets = suites.Contains(contracts) ? await StartContractsHostAsync(contracts!, requested) : [];
            PrepareSuites(suites, endpoints);

            var workloads = suites.SelectMany(s => s.Workloads(s is ContractsSuite ? contractTargets : TargetsOf(s, targets, variantTargets))).ToList();
            var settings = new MeasurementSettings(_options.Trials, _options.WarmUp, _options.TrialDuration, _options.Clients, _options.PrecisionRule);
            using var native = suites.OfType<PingPongSuite>().Any() ? NativeFloor.Build() : null;
            var (repetitions, refused) = await InterleavedMeasurement.MeasureAsync(new TrialRunner(factory, settings, hostTls, _hostProcesses), workloads, native, _options.Repeat, _options.Pin, _console, cancellationToken);
            var push = suites.OfType<PushSuite>().FirstOrDefault() is { } pushSuite ? await MeasurePushAsync(factory, TargetsOf(pushSuite, targets, variantTargets), hostTls) : null;
            var pooled = Repetition.Pool(repetitions);
            var hostAllocations = await _hostAllocations.PerCallAsync(pooled.Cells);

            var report = new Report(
                Report.SchemaName,
                started,
                clock.Elapsed.TotalSeconds,
                EnvironmentInfo.Capture(_options.Pin != CpuPlacement.None, native?.Description ?? "not measured: the pingpong suite did not run", _options.HostEndpointsFile is null, _hostAllocations.Description),
                new RunSettings([.. suites.Select(s => s.Name)], settings.Trials, settings.WarmUp.TotalSeconds, settings.TrialDuration.TotalSeconds, settings.Clients, _options.Quick, _options.Pin, hostMode,
                    _options.Repeat, _options.NoiseThreshold, settings.MaxTrials, settings.Precision?.TargetHalfWidth ?? 0),
                [.. targets.Concat(variantTargets).Concat(workloads.Select(w => w.Target)).DistinctBy(t => t.Label).Select(t => new BindingInfo(t.Label, t.Binding, t.Address, t.Configuration))],
                ReportBuilder.Measurements(pooled.Cells, pooled.Native, _options.NoiseThreshold, hostAllocations),
                ReportBuilder.BreakEven(pooled.Cells),
                notMeasured,
                [.. refused, .. contracts?.Refused ?? []],
                ReportBuilder.Repeatability(repetitions, _options.NoiseThreshold),
                push);
            ConsoleReporter.Write(_console, report);
            var directory = ReportWriter.Write(report, _options.OutputRoot, started);
            _console.MarkupLineInterpolated($"Reports written to [bold]{directory}[/] (report.md, report.json, report.html); every run side by side: [bold]{DashboardWriter.Write(_options.OutputRoot)}[/]");
            return 0;
        }
        catch (Exception exception) when (exception is MeasurementException or InvalidOperationException or ArgumentException or NotSupportedException or IOException or TimeoutException
            or ContractAssemblyException or ContractLoadException)
        {
            _console.MarkupLineInterpolated($"[red]error:[/] {exception.Message}");
            // A host that died explains a failure better than the client whose connection closed.
            var hosts = _cleanup.OfType<HostLauncher>().Concat(_cleanup.OfType<ContractsHost>().Select(c => c.Host).OfType<HostLauncher>());
            foreach (var report in hosts.Select(h => h.ExitReport()).OfType<string>())
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
                _hostAllocations.NotMeasured("the host was started elsewhere (--host), so the runner does not know its process");
            }

            return (EndpointsFile.Read(file).Addresses, $"already running ({file})");
        }

        _console.MarkupLine("Starting RpcCompare.Host ...");
        var host = await HostLauncher.StartAsync(networkBindings.Count == 0 ? [BindingNames.Pipes] : networkBindings, _options.Pin);
        _cleanup.Add(host);
        RecordProcess(host);
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

    private async Task<IReadOnlyList<BindingTarget>> StartContractsHostAsync(ContractsSuite suite, IReadOnlyList<string> requested)
    {
        if (_options.HostEndpointsFile is not null)
        {
            throw new ArgumentException("--contracts starts a host of its own for the team's contracts, so it cannot measure a host started elsewhere (--host); leave one of them out.");
        }

        foreach (var note in suite.Source.NotMeasured)
        {
            _console.MarkupLineInterpolated($"[yellow]not measured[/] {note}");
        }

        _console.MarkupLineInterpolated($"Starting RpcCompare.Host for {suite.Source.Assembly.Name} ...");
        var host = await ContractsHost.StartAsync(suite, requested, _options.Pin);
        _cleanup.Add(host);
        if (host.Host is { } launched)
        {
            RecordProcess(launched);
        }

        return host.Targets;
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
        bool readAllocations, List<NotMeasured> notMeasured, ClientTlsOptions? hostTls)
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

                variant.Prepare?.Invoke();
                var host = await HostLauncher.StartAsync(bindings, _options.Pin, variant.EnvironmentForHost());
                _cleanup.Add(host);
                RecordProcess(host);
                if (readAllocations)
                {
                    Monitor(host);
                }

                addresses = new Dictionary<string, string>(host.Endpoints);
            }

            // A knob on both sides (the gRPC engine) has a host and a client factory of its own. A
            // client-side knob calls the main host, so it trusts what the main clients trust.
            if (variant.CreateClientFactory is { } create)
            {
                clientFactory = create(variant.NeedsHost ? null : hostTls);
                _cleanup.Add(new Disposer(clientFactory));
            }

            variantTargets.AddRange(bindings.Select(b => new BindingTarget(variant.Label(b), b, addresses[b], BindingConfigurations.Describe(b, variant), Variant: variant.Suffix, ClientFactory: clientFactory)));
        }

        return variantTargets;
    }

    /// <summary>The targets a suite measures: the bindings', and those of its own knobs.</summary>
    private static IReadOnlyList<BindingTarget> TargetsOf(ISuite suite, IReadOnlyList<BindingTarget> targets, IReadOnlyList<BindingTarget> variantTargets) =>
        [.. targets, .. variantTargets.Where(t => suite.Variants.Any(u => u.Variant.Suffix == t.Variant && u.Bindings.Contains(t.Binding)))];

    private void RecordProcess(HostLauncher host)
    {
        foreach (var address in host.Endpoints.Values)
        {
            _hostProcesses[address] = host.ProcessId;
        }
    }

    // Cleanup runs in list order: a host's allocation session must end before the host is terminated.
    private void Monitor(HostLauncher host)
    {
        if (_hostAllocations.Monitor(host) is { } session)
        {
            _cleanup.Insert(0, session);
        }
    }

    private sealed class Disposer(IDisposable disposable) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            disposable.Dispose();
            return ValueTask.CompletedTask;
        }
    }

    /// <summary>The push suite: delivery to subscribers in agent processes rather than call rates, so it runs on its own after the call suites.</summary>
    private async Task<PushResults> MeasurePushAsync(RpcClientFactory factory, IReadOnlyList<BindingTarget> targets, ClientTlsOptions? hostTls)
    {
        var settings = PushSettings.For(_options.Quick, _options.Full, _options.MaxSubscribers);
        var pushTargets = PushSuite.Targets(factory, targets);
        PushResults? results = null;
        var progress = new RunProgress(_console, pushTargets.Count * settings.PlannedSecondsPerTarget);
        await progress.RunAsync(async report => results = await PushSuite.RunAsync(factory, pushTargets, settings, report, progress.Completed, hostTls?.ServerCertificateThumbprint));
        return results!;
    }
}
