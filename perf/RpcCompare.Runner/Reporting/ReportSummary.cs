using RpcCompare.Runner.Push;

namespace RpcCompare.Runner.Reporting;

/// <summary>What a report says before its tables, in one place for every reporter that writes it out.</summary>
internal static class ReportSummary
{
    /// <summary>The machine, runtime and method, as term and value.</summary>
    public static IReadOnlyList<(string Term, string Value)> Facts(Report report)
    {
        var environment = report.Environment;
        var settings = report.Settings;
        (string, string)[] machine =
        [
            ("Machine", $"{environment.CpuModel}, {environment.LogicalCpus} logical CPUs; {environment.Os}, kernel {environment.Kernel}"),
            ("Runtime", $"{environment.Dotnet}; runner GC {Gc(environment.RunnerGc)}; host GC {Gc(environment.HostGc)}"),
            ("Pinned to CPUs", settings.PinningDescription),
        ];
        if (report.Push is { } push && settings.Suites.All(s => s == PushSuite.SuiteName))
        {
            // No call trials ran: the call method, the native floor and the noise marks do not apply.
            return
            [
                .. machine,
                ("Method", $"the push suite only, {push.Settings.Mode} mode: subscribers in separate agent processes (up to {push.Settings.SubscribersPerAgent:#,0} each), " +
                    $"the runner publishing; the broadcast search and the collaboration rows as their tables say; host: {settings.HostMode}; {report.DurationSeconds:0} s in all"),
            ];
        }

        return
        [
            .. machine,
            ("Native floor", environment.NativeFloor),
            ("Host allocations", environment.HostAllocations),
            ("Method", $"{settings.Trials} trials{MoreTrials(settings)} of {settings.TrialSeconds:0.###} s after {settings.WarmUpSeconds:0.###} s of warm-up per cell; " +
                "one unmeasured warm-up pass over every cell first; trials interleaved across the bindings of a row (trial 1 of each, then trial 2, each starting one binding later), " +
                "ratios from the trials that ran side by side (median, min–max, ± half the 95% confidence interval of their geometric mean); " +
                $"{settings.Clients} client(s) in a closed loop; host: {settings.HostMode}; {report.DurationSeconds:0} s in all" +
                (settings.Repetitions > 1 ? $"; {settings.Repetitions} repetitions of the whole selection, trials pooled" : "") +
                (settings.Quick ? "; --quick (minimal trials: smoke figures, not for comparison)" : "")),
            ("Noisy cells", $"marked {ReportTables.NoisyMark}: trials (or their paired ratios to pipes) span more than {settings.NoiseThreshold:P0} of their median"),
            .. Repeatability(report),
        ];
    }

    /// <summary>Every binding of the design: how each measured one was configured, why each other one was not measured.</summary>
    public static IReadOnlyList<(string Binding, string Configuration)> Bindings(Report report) =>
    [
        .. report.Bindings.Select(b => (b.Label, b.Configuration)),
        .. report.NotMeasured.Select(m => (m.Binding, "not measured: " + m.Reason)),
    ];

    private static IEnumerable<(string, string)> Repeatability(Report report)
    {
        if (report.Repeatability is not { } r)
        {
            yield break;
        }

        yield return ("Repeatability", $"{r.WithinTarget} of {r.Headlines.Count} headline figures stayed within ±{r.TargetDeviation:P0} of their median over {r.Repetitions} repetitions; " +
            $"the largest deviation was ±{r.WorstDeviation:P1}");
    }

    private static string Gc(GcInfo gc) => gc.Server is { } server ? $"{(server ? "server" : "workstation")}, {gc.Mode}, {gc.Datas}, {gc.LohThreshold}" : gc.Mode;

    // The stopping rule in words: how far a row's trials may go, and why.
    private static string MoreTrials(RunSettings settings) =>
        settings.MaxTrials > settings.Trials && settings.PrecisionTarget > 0
            ? string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $" (up to {settings.MaxTrials} in a row while a ratio to pipes, or a knob's to its binding, is wider than ±{settings.PrecisionTarget * 100:0.#}%)")
            : "";
}
