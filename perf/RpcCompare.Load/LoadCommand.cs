using System.CommandLine;
using RpcCompare.Load.Capacity;
using RpcCompare.Load.Chaos;
using RpcCompare.Load.Scenarios;
using RpcCompare.Load.Soak;
using RpcCompare.Perf.Hosting.Security;
using Spectre.Console;

namespace RpcCompare.Load;

/// <summary>The load command's command line.</summary>
internal static class LoadCommand
{
    /// <param name="console">Where progress and errors go.</param>
    /// <param name="onReport">Handed the run's report (with NBomber's own statistics) once written; for tests.</param>
    public static RootCommand Create(IAnsiConsole console, Action<Reporting.LoadReport>? onReport = null)
    {
        var bindings = new Option<string?>("--bindings", "-b") { Description = "Bindings to load, comma-separated. Default: every network binding the host serves." };
        var operations = new Option<string?>("--operations")
        {
            Description = $"Operations, comma-separated: {string.Join(", ", LoadOperation.All.Select(o => o.Name))}. Default: all.",
        };
        var models = new Option<string>("--models")
        {
            Description = "Load models, comma-separated: closed (virtual users calling in a loop), open (a fixed rate of calls per second).",
            DefaultValueFactory = _ => "closed,open",
        };
        var quick = new Option<bool>("--quick", "-q")
        {
            Description = $"A smoke run: ping and echo-100kB only, {LoadSettings.Quick.Duration.TotalSeconds:0.#}-s scenarios, no warm-up beyond one call per user, binding and operation, {LoadSettings.Quick.Users} users, {LoadSettings.Quick.Rate}/s " +
                "(under a minute for every binding); with --find-max, 1-s steps up to 16,000/s; with --chaos, 8 s with the kill at 2 s.",
        };
        var users = new Option<int?>("--users") { Description = $"Virtual users of the closed model (default {LoadSettings.Default.Users})." };
        var rate = new Option<int?>("--rate") { Description = $"Calls per second of the open model (default {LoadSettings.Default.Rate})." };
        var warmUp = new Option<double?>("--warmup-seconds") { Description = $"Unmeasured calls before each scenario (default {LoadSettings.Default.WarmUp.TotalSeconds:0.#} s); with 0 each user still connects with one unmeasured call." };
        var ramp = new Option<double?>("--ramp-seconds") { Description = "Load rising linearly from zero before each scenario's steady part (default 0); NBomber counts it in its statistics." };
        var duration = new Option<double?>("--duration-seconds") { Description = $"Measured time per scenario (default {LoadSettings.Default.Duration.TotalSeconds:0.#} s)." };
        var host = new Option<FileInfo?>("--host") { Description = "Load an already-running host (e.g. a container) through the endpoints file it wrote, instead of starting one." };
        var findMax = new Option<bool>("--find-max")
        {
            Description = "Instead of the fixed scenarios: per binding and operation, the highest open-model rate that holds a whole step with p99 within " +
                "--latency-budget-ms and no failed call (rate doubled from --start-rate, then bisected). Its capacity table is the report's headline.",
        };
        var budget = new Option<double?>("--latency-budget-ms") { Description = $"p99 budget of --find-max (default {CapacitySettings.Default.LatencyBudgetMs:0.##} ms)." };
        var step = new Option<double?>("--step-seconds") { Description = $"How long --find-max holds each rate (default {CapacitySettings.Default.Step.TotalSeconds:0.#} s; --quick {CapacitySettings.Quick.Step.TotalSeconds:0.#} s)." };
        var startRate = new Option<int?>("--start-rate") { Description = $"First rate --find-max tries (default {CapacitySettings.Default.StartRate:#,0}/s)." };
        var maxRate = new Option<int?>("--max-rate") { Description = $"Highest rate --find-max tries (default {CapacitySettings.Default.MaxRate:#,0}/s; --quick {CapacitySettings.Quick.MaxRate:#,0}/s)." };
        var soak = new Option<string?>("--soak")
        {
            Description = $"Instead of the fixed scenarios: hold each binding at --rate (default {SoakSettings.DefaultRate:#,0}/s per operation; operations default to ping) " +
                $"for DURATION (default {SoakSettings.DefaultDuration.TotalMinutes:0} min; 90s, 10m, 1h), sampling the host every second (RSS, GC heap, gen-2 collections, " +
                "threads, descriptors, sockets). Fails when memory or descriptors keep growing or any call fails (the criterion is in the report).",
            Arity = ArgumentArity.ZeroOrOne,
        };
        var chaos = new Option<string?>("--chaos")
        {
            Description = "kill-host: every binding writes numbered records in closed loops (--users, default " +
                $"{ChaosSettings.Default.Users}, for --duration-seconds, default {ChaosSettings.Default.Duration.TotalSeconds:0}); at --kill-after-seconds " +
                $"(default {ChaosSettings.Default.KillAfter.TotalSeconds:0}) the host is killed with SIGKILL and restarted on the same addresses. " +
                "Reports failed calls and their errors, each binding's time to serve again, and whether the file holds every acknowledged write. " +
                "kill-replica: the same through a fleet's balancer (--host), with --kill-command killing one replica (not restarted) and " +
                $"{ChaosSettings.DefaultSubscribersPerBinding} push subscribers per binding that checks every publication acknowledged meanwhile reached them, in order.",
        };
        chaos.AcceptOnlyFromAmong("kill-host", "kill-replica");
        var killAfter = new Option<double?>("--kill-after-seconds") { Description = "When --chaos kills the host or the replica, in seconds into the load." };
        var killCommand = new Option<string?>("--kill-command")
        {
            Description = "kill-replica: the shell command that kills one replica of the fleet --host names, e.g. " +
                "\"podman kill -s KILL rpccompare-fleet_host-2_1\" (run with /bin/sh -c; a nonzero exit fails the run).",
        };
        var dataRoot = new Option<DirectoryInfo?>("--data-root")
        {
            Description = "kill-replica: the fleet's shared data root as this machine sees it (for podman: `podman volume inspect rpccompare-fleet_data`'s Mountpoint); " +
                "the written files are created and read back there.",
        };
        var security = new Option<string?>("--security")
        {
            Description = "How the TCP bindings are secured, comma-separated: plaintext, tls, mtls, or all (default plaintext). Each mode gets a host of its own, " +
                "one after the other; tls and mtls load only the TCP bindings (wcf-nettcp, wcf-http, grpc-tcp, fast-tcp), with the measuring tools' own certificates, " +
                "and their rows read grpc-tcp/tls beside grpc-tcp, with the paired ratios in the report. Not with --host (its endpoints file says how it is secured), --soak or --chaos.",
        };
        var output = new Option<DirectoryInfo>("--output", "-o") { Description = "Reports go to OUTPUT/<UTC timestamp>/load/.", DefaultValueFactory = _ => new DirectoryInfo("results") };

        var root = new RootCommand(
            "RpcCompare load command: starts the host as a separate process and runs NBomber 4.1.2 scenarios (closed and open models) " +
            "against every binding it serves; NBomber's reports per binding and a side-by-side summary go under results/<UTC timestamp>/load/.")
        {
            bindings, operations, models, quick, users, rate, warmUp, ramp, duration, findMax, budget, step, startRate, maxRate, soak, chaos, killAfter, killCommand, dataRoot, host, security, output,
        };
        root.SetAction(async (parse, cancellationToken) =>
        {
            LoadOptions options;
            try
            {
                var defaults = parse.GetValue(quick) ? LoadSettings.Quick : LoadSettings.Default;
                var settings = new LoadSettings(
                    parse.GetValue(users) ?? defaults.Users,
                    parse.GetValue(rate) ?? defaults.Rate,
                    parse.GetValue(warmUp) is { } w ? TimeSpan.FromSeconds(w) : defaults.WarmUp,
                    parse.GetValue(duration) is { } d ? TimeSpan.FromSeconds(d) : defaults.Duration,
                    TimeSpan.FromSeconds(parse.GetValue(ramp) ?? 0));
                if (settings.Users < 1 || settings.Rate < 1 || settings.WarmUp < TimeSpan.Zero || settings.Duration < TimeSpan.FromSeconds(1) || settings.Ramp < TimeSpan.Zero)
                {
                    throw new ArgumentException("--users and --rate must be positive, --duration-seconds at least 1, --warmup-seconds and --ramp-seconds not negative.");
                }

                var capacityDefaults = parse.GetValue(quick) ? CapacitySettings.Quick : CapacitySettings.Default;
                var capacity = capacityDefaults with
                {
                    LatencyBudgetMs = parse.GetValue(budget) ?? capacityDefaults.LatencyBudgetMs,
                    Step = parse.GetValue(step) is { } st ? TimeSpan.FromSeconds(st) : capacityDefaults.Step,
                    StartRate = parse.GetValue(startRate) ?? capacityDefaults.StartRate,
                    MaxRate = parse.GetValue(maxRate) ?? capacityDefaults.MaxRate,
                };
                if (capacity.LatencyBudgetMs <= 0 || capacity.Step < TimeSpan.FromSeconds(1) || capacity.StartRate < CapacitySettings.MinRate || capacity.MaxRate < capacity.StartRate)
                {
                    throw new ArgumentException($"--latency-budget-ms must be positive, --step-seconds at least 1, --start-rate at least {CapacitySettings.MinRate} and --max-rate at least --start-rate.");
                }

                var soaking = parse.GetResult(soak) is not null;
                var killing = parse.GetValue(chaos) is not null;
                if (new[] { soaking, killing, parse.GetValue(findMax) }.Count(x => x) > 1)
                {
                    throw new ArgumentException("--find-max, --soak and --chaos are different runs: give one.");
                }

                var killingReplica = parse.GetValue(chaos) == "kill-replica";
                if (parse.GetValue(host) is not null && (soaking || (killing && !killingReplica)))
                {
                    throw new ArgumentException(killing
                        ? "--chaos kill-host kills and restarts the host, so it needs the host the load command starts (not --host); for a fleet behind a balancer, --chaos kill-replica."
                        : "--soak samples the host process from this machine, so it needs the host the load command starts (not --host).");
                }

                if (killingReplica && (parse.GetValue(host) is null || parse.GetValue(killCommand) is null || parse.GetValue(dataRoot) is not { Exists: true }))
                {
                    throw new ArgumentException("--chaos kill-replica needs --host (the balancer's endpoints file), --kill-command (what kills one replica) and --data-root (an existing folder: the fleet's shared data root).");
                }

                if (!killingReplica && (parse.GetValue(killCommand) is not null || parse.GetValue(dataRoot) is not null))
                {
                    throw new ArgumentException("--kill-command and --data-root belong to --chaos kill-replica.");
                }

                var securityModes = BenchSecurity.Parse(parse.GetValue(security), "--security");
                if (parse.GetValue(security) is not null && (parse.GetValue(host) is not null || soaking || killing))
                {
                    throw new ArgumentException(parse.GetValue(host) is not null
                        ? "--security starts a host per mode; a host given with --host is secured as its endpoints file says, so leave --security out."
                        : "--security compares modes in the scenario and --find-max runs; --soak and --chaos run plaintext.");
                }

                var chaosDefaults = parse.GetValue(quick) ? ChaosSettings.Quick : ChaosSettings.Default;
                var chaosSettings = new ChaosSettings(
                    parse.GetValue(users) ?? chaosDefaults.Users,
                    parse.GetValue(duration) is { } cd ? TimeSpan.FromSeconds(cd) : chaosDefaults.Duration,
                    parse.GetValue(killAfter) is { } ka ? TimeSpan.FromSeconds(ka) : chaosDefaults.KillAfter,
                    chaosDefaults.ConnectTimeout)
                {
                    Target = killingReplica ? ChaosTarget.Replica : ChaosTarget.Host,
                    KillCommand = parse.GetValue(killCommand),
                    DataRoot = parse.GetValue(dataRoot)?.FullName,
                };
                if (killing && (chaosSettings.KillAfter <= TimeSpan.Zero || chaosSettings.KillAfter >= chaosSettings.Duration))
                {
                    throw new ArgumentException("--kill-after-seconds must fall inside the load (after 0, before --duration-seconds).");
                }

                var soakSettings = new SoakSettings(
                    parse.GetValue(soak) is { } soakDuration ? SoakSettings.ParseDuration(soakDuration) : SoakSettings.DefaultDuration,
                    parse.GetValue(rate) ?? SoakSettings.DefaultRate);
                options = new LoadOptions(
                    soaking ? LoadMode.Soak : killing ? LoadMode.Chaos : parse.GetValue(findMax) ? LoadMode.FindMax : LoadMode.Scenarios,
                    parse.GetValue(bindings) is { } b ? Split(b) : null,
                    parse.GetValue(operations) is { } o ? [.. Split(o).Select(LoadOperation.Find)] : soaking ? [LoadOperation.Find("ping")] : killing ? [LoadOperation.Find("write-at")]
                        : parse.GetValue(quick) && !parse.GetValue(findMax) ? [LoadOperation.Find("ping"), LoadOperation.Find("echo-100kB")] : LoadOperation.All,
                    [.. Split(parse.GetValue(models)!).Select(LoadModels.Parse).Distinct()],
                    settings,
                    parse.GetValue(quick),
                    parse.GetValue(host)?.FullName,
                    parse.GetValue(output)!.FullName,
                    capacity,
                    soakSettings,
                    chaosSettings,
                    securityModes);
            }
            catch (ArgumentException exception)
            {
                console.MarkupLineInterpolated($"[red]error:[/] {exception.Message}");
                return 2;
            }

            var (exitCode, report) = await new LoadRun(options, console).RunAsync(cancellationToken);
            if (report is not null)
            {
                onReport?.Invoke(report);
            }

            return exitCode;
        });
        return root;
    }

    private static string[] Split(string value) => value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
