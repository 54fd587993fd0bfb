namespace RpcCompare.Runner.Reporting;

/// <summary>What a report says before its tables, in one place for every reporter that writes it out.</summary>
internal static class ReportSummary
{
    /// <summary>The machine, runtime and method, as term and value.</summary>
    public static IReadOnlyList<(string Term, string Value)> Facts(Report report)
    {
        var environment = report.Environment;
        var settings = report.Settings;
        return
        [
            ("Machine", $"{environment.CpuModel}, {environment.LogicalCpus} logical CPUs; {environment.Os}, kernel {environment.Kernel}"),
            ("Runtime", $"{environment.Dotnet}; runner GC {Gc(environment.RunnerGc)}; host GC {Gc(environment.HostGc)}"),
            ("Pinned to one CPU", settings.PinningDescription),
            ("Native floor", environment.NativeFloor),
            ("Method", $"{settings.Trials} trials of {settings.TrialSeconds:0.###} s after {settings.WarmUpSeconds:0.###} s of warm-up per cell; " +
                $"{settings.Clients} client(s) in a closed loop; host: {settings.HostMode}; {report.DurationSeconds:0} s in all" +
                (settings.Quick ? "; --quick (minimal trials: smoke figures, not for comparison)" : "")),
        ];
    }

    /// <summary>Every binding of the design: how each measured one was configured, why each other one was not measured.</summary>
    public static IReadOnlyList<(string Binding, string Configuration)> Bindings(Report report) =>
    [
        .. report.Bindings.Select(b => (b.Label, b.Configuration)),
        .. report.NotMeasured.Select(m => (m.Binding, "not measured: " + m.Reason)),
    ];

    private static string Gc(GcInfo gc) => gc.Server is { } server ? $"{(server ? "server" : "workstation")}, {gc.Mode}, {gc.Datas}" : gc.Mode;
}
