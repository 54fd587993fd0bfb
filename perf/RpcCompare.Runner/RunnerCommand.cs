using System.CommandLine;
using RpcCompare.Perf.Hosting;
using RpcCompare.Runner.Contracts;
using RpcCompare.Runner.Measurement;
using RpcCompare.Runner.Suites;
using Spectre.Console;

namespace RpcCompare.Runner;

/// <summary>The runner's command line.</summary>
internal static class RunnerCommand
{
    public static RootCommand Create(IAnsiConsole console)
    {
        var suites = new Option<string?>("--suite", "-s")
        {
            Description = $"Suites to run, comma-separated: {string.Join(", ", SuiteCatalog.All.Select(s => s.Name))}, {ContractsSuite.SuiteName} (with --contracts), or all. " +
                $"Default: {SuiteCatalog.Default} (with --quick: all; with --contracts: {ContractsSuite.SuiteName}).",
        };
        var bindings = new Option<string?>("--bindings", "-b") { Description = "Bindings to measure, comma-separated. Default: every binding of this build." };
        var quick = new Option<bool>("--quick", "-q") { Description = "Every suite (unless --suite or --contracts) with minimal trials: a smoke run (about 3 minutes on 2 cores), not figures to compare." };
        var trials = new Option<int?>("--trials") { Description = "Timed trials per cell (default 5; 2 with --quick)." };
        var maxTrials = new Option<int?>("--max-trials")
        {
            Description = "The most trials a row gets: past --trials, another round of side-by-side trials runs while a ratio to pipes (or a knob's to its binding) " +
                "is wider than --precision (default: --trials, no more; docs/measurements/precision-20261127.md says why).",
        };
        var precision = new Option<double>("--precision")
        {
            Description = "The stopping rule's target, in percent: half a ratio's 95% confidence interval (default 5; 0 turns the rule off).",
            DefaultValueFactory = _ => PrecisionRule.DefaultTargetHalfWidth * 100,
        };
        var trialSeconds = new Option<double?>("--trial-seconds") { Description = "Length of one trial in seconds (default 1; 0.1 with --quick)." };
        var warmUpSeconds = new Option<double?>("--warmup-seconds") { Description = "Warm-up per cell in seconds (default 0.5; 0.05 with --quick)." };
        var clients = new Option<int>("--clients", "-c") { Description = "Concurrent clients in a closed loop, each on its own connection.", DefaultValueFactory = _ => 1 };
        var pin = new Option<string?>("--pin")
        {
            Description = "Pin the runner to CPU 0 and the host to CPU 1 (separate, the default of --pin), or both to CPU 0 (--pin same, as Chromium's IPC perftests do); " +
                "the native floor follows. The report says how the run was pinned.",
            Arity = ArgumentArity.ZeroOrOne,
        };
        pin.AcceptOnlyFromAmong("separate", "same");
        var host = new Option<FileInfo?>("--host") { Description = "Measure an already-running host through the endpoints file it wrote, instead of starting one." };
        var repeat = new Option<int>("--repeat", "-r")
        {
            Description = "Run the whole selection N times in this invocation; the report pools the trials and shows how much each headline ratio moved between repetitions.",
            DefaultValueFactory = _ => 1,
        };
        var noise = new Option<double>("--noise-threshold")
        {
            Description = "Mark a cell noisy when its trials (or its paired ratios) span more than this share of their median (default 0.10).",
            DefaultValueFactory = _ => RunnerOptions.DefaultNoiseThreshold,
        };
        var full = new Option<bool>("--full")
        {
            Description = "push suite: the original method in full, 100 bursts per subscriber count and the original collaboration table (15-s intervals, 100 publications per room); an hour or more per binding.",
        };
        var maxSubscribers = new Option<int?>("--max-subscribers")
        {
            Description = "push suite: the broadcast search's ceiling, the largest M it tries (default 10,000; 20,000 with --full). " +
                "Every subscriber but gRPC's multiplexed ones holds a connection, and the host may open 20,000 files here.",
        };
        var contracts = new Option<FileInfo?>("--contracts")
        {
            Description = "A team's service assembly: serves its [ServiceContract] implementations on a host of their own and measures the calls of its " +
                "workloads (RpcCompare.Workloads.IRpcWorkload<T>) over every binding that carries them, as the contracts suite. " +
                "Alone it runs only that suite; docs/your-contracts.md.",
        };
        var output = new Option<DirectoryInfo>("--output", "-o") { Description = "Reports go to OUTPUT/<UTC timestamp>/.", DefaultValueFactory = _ => new DirectoryInfo("results") };

        var root = new RootCommand(
            "RpcCompare comparison runner: starts the host as a separate process, measures every binding side by side and " +
            "writes report.md, report.json and report.html under results/<UTC timestamp>/.")
        {
            suites, bindings, contracts, quick, full, maxSubscribers, trials, maxTrials, precision, trialSeconds, warmUpSeconds, clients, repeat, noise, pin, host, output,
        };
        root.SetAction(async (parse, cancellationToken) =>
        {
            var isQuick = parse.GetValue(quick);
            var assembly = parse.GetValue(contracts)?.FullName;
            // A team's assembly alone means its own suite; with --suite it joins the ones named.
            var suiteText = parse.GetValue(suites) ?? (assembly is not null ? ContractsSuite.SuiteName : isQuick ? "all" : SuiteCatalog.Default);
            string[] all = [.. SuiteCatalog.All.Select(s => s.Name), .. assembly is null ? [] : new[] { ContractsSuite.SuiteName }];
            var options = new RunnerOptions(
                suiteText == "all" ? all : Split(suiteText),
                parse.GetValue(bindings) is { } b ? Split(b) : null,
                isQuick,
                parse.GetValue(trials) ?? (isQuick ? 2 : 5),
                TimeSpan.FromSeconds(parse.GetValue(warmUpSeconds) ?? (isQuick ? 0.05 : 0.5)),
                TimeSpan.FromSeconds(parse.GetValue(trialSeconds) ?? (isQuick ? 0.1 : 1)),
                parse.GetValue(clients),
                Placement(parse, pin),
                parse.GetValue(host)?.FullName,
                parse.GetValue(output)!.FullName,
                parse.GetValue(repeat),
                parse.GetValue(noise),
                parse.GetValue(full),
                parse.GetValue(maxSubscribers),
                assembly,
                parse.GetValue(maxTrials),
                parse.GetValue(precision) / 100);
            if (options.Quick && options.Full)
            {
                console.MarkupLine("[red]error:[/] --quick and --full ask for opposite things; choose one.");
                return 2;
            }

            if (options.Trials < 1 || options.Clients < 1 || options.Repeat < 1 || options.TrialDuration <= TimeSpan.Zero || options.WarmUp < TimeSpan.Zero
                || options.NoiseThreshold <= 0 || options.MaxSubscribers < 1)
            {
                console.MarkupLine("[red]error:[/] --trials, --clients, --repeat, --trial-seconds, --noise-threshold and --max-subscribers must be positive, --warmup-seconds not negative.");
                return 2;
            }

            if (options.MaxTrials < options.Trials)
            {
                console.MarkupLine($"[red]error:[/] --max-trials ({options.MaxTrials}) must be at least --trials ({options.Trials}).");
                return 2;
            }

            if (options.Precision < 0)
            {
                console.MarkupLine("[red]error:[/] --precision must not be negative (0 turns the stopping rule off).");
                return 2;
            }

            return await new ComparisonRun(options, console).RunAsync(cancellationToken);
        });
        return root;
    }

    /// <summary>Where --pin puts runner and host: not given, nowhere; bare or "separate", a core each; "same", both on CPU 0.</summary>
    internal static CpuPlacement Placement(ParseResult parse, Option<string?> pin) => parse.GetResult(pin) is { Implicit: false }
        ? parse.GetValue(pin) == "same" ? CpuPlacement.SameCore : CpuPlacement.SeparateCores
        : CpuPlacement.None;

    private static string[] Split(string value) => value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
