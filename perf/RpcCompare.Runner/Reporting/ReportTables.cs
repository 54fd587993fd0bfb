using System.Globalization;
using RpcCompare.Bindings;
using RpcCompare.Runner.Hosting;

namespace RpcCompare.Runner.Reporting;

/// <summary>
/// The tables of a report, in the shape of the original comparison: operations down, bindings
/// across. Every cell is formatted from a record of the report, nothing else.
/// </summary>
internal static class ReportTables
{
    private static readonly CultureInfo s_culture = CultureInfo.InvariantCulture;

    public static IReadOnlyList<ReportTable> Build(Report report)
    {
        var tables = new List<ReportTable>();
        foreach (var suite in report.Settings.Suites)
        {
            var records = report.Measurements.Where(m => m.Suite == suite).ToList();
            if (records.Count == 0)
            {
                continue;
            }

            var refused = report.Refused.Where(r => r.Suite == suite).ToList();
            ReportTable Matrix(string suite, string title, IReadOnlyList<MeasurementRecord> records, Func<MeasurementRecord, string?> format, string? note = null) =>
                ReportTables.Matrix(suite, title, records, refused, format, note);

            switch (suite)
            {
                case "payload":
                    tables.Add(Matrix(suite, "payload: MB/s, median (min–max)", records, m => m.MegabytesPerSecond is { } s ? Spread(s.Median, s.Min, s.Max, "0.0") : null,
                        "inproc hands the request object over by reference: its MB/s counts bytes that never move, a ceiling rather than a transport rate."));
                    tables.Add(Matrix(suite, "payload: calls per second, median", records, m => Number(m.CallsPerSecond.Median)));
                    break;
                case "pingpong":
                    tables.Add(Matrix(suite, "pingpong: round trips per second, median (min–max)", records, m => Spread(m.CallsPerSecond.Median, m.CallsPerSecond.Min, m.CallsPerSecond.Max, "#,0")));
                    tables.Add(Matrix(suite, "pingpong: ratio to the native floor", records, m => m.RatioToNativeSpread is { } r ? r.Median.ToString("0.00", s_culture) + Interval(r) : null,
                        FloorNote(records) + $"{report.Environment.NativeFloor}. " + IntervalNote));
                    tables.Add(Matrix(suite, "pingpong: bytes allocated per round trip in the runner process", records, m => m.AllocatedBytesPerCall is { } a ? a.ToString("#,0", s_culture) : null,
                        "Client side for every binding; for inproc the service runs in the runner too, so its allocations are counted."));
                    tables.Add(Matrix(suite, "pingpong: bytes allocated per round trip in the host process", records, m => m.HostAllocatedBytesPerCall is { } a ? a.ToString("#,0", s_culture) : null,
                        "Server side, read from the host's runtime events: " + report.Environment.HostAllocations));
                    tables.Add(Matrix(suite, "pingpong: CPU µs per round trip, runner + host", records, Cpu,
                        "CPU time of each process over the trials (every thread; the host's from /proc, 10 ms ticks) divided by the round trips: what a round trip costs "
                        + "the machine, spinning included. For inproc the runner is the host."));
                    tables.Add(Matrix(suite, "pingpong: latency p50 / p99 (µs)", records, Latency));
                    break;
                case "scaling":
                    tables.Add(ScalingTable(records, refused));
                    tables.Add(Matrix(suite, "scaling: latency p50 / p99 (µs)", records, Latency));
                    break;
                case "tuning":
                    tables.Add(TuningTable(records, refused));
                    break;
                case "breakeven":
                    tables.Add(Matrix(suite, "breakeven: overhead share 1 − t(inproc)/t(binding) as work grows", records, m => m.OverheadShare is { } o ? o.ToString("P1", s_culture) : null));
                    tables.Add(BreakEvenTable(report));
                    break;
                default:
                    if (suite == "ops")
                    {
                        tables.Add(Matrix(suite, "ops: calls per second, and how much faster the raw pipe is (the 2009 table's shape)", records, PipesFaster,
                            "pipes +N%: the raw pipe's rate over the binding's, minus 1, as a median of side-by-side trials."));
                    }

                    tables.Add(Matrix(suite, $"{suite}: calls per second, median (min–max)", records, m => Noisy(m, Spread(m.CallsPerSecond.Median, m.CallsPerSecond.Min, m.CallsPerSecond.Max, "#,0"))));
                    // Without pipes in the run (--bindings, a team's contracts) the table would be dashes only.
                    if (records.Any(m => m.RatioToPipesSpread is not null))
                    {
                        tables.Add(Matrix(suite, $"{suite}: ratio to pipes, median (min–max) of side-by-side trials ± its interval", records,
                            m => m.RatioToPipesSpread is { } r ? Noisy(m, Ratio(r)) : null, IntervalNote));
                    }

                    tables.Add(Matrix(suite, $"{suite}: latency p50 / p99 (µs)", records, Latency));
                    tables.Add(Matrix(suite, $"{suite}: overhead share 1 − t(inproc)/t(binding), median (min–max)", records,
                        m => m.OverheadShareSpread is { } o ? $"{o.Median.ToString("P1", s_culture)} ({o.Min.ToString("P1", s_culture)}–{o.Max.ToString("P1", s_culture)})" : null,
                        "How much of each call is framework and transport rather than the operation's own work."));
                    break;
            }
        }

        if (report.Repeatability is { } repeatability)
        {
            tables.Add(RepeatabilityTable(repeatability));
        }

        if (report.Push is { } push)
        {
            tables.AddRange(Push.PushTables.Build(push));
        }

        return tables;
    }

    /// <summary>Appended to a cell whose trials disagree by more than the run's noise threshold.</summary>
    public const string NoisyMark = "†";

    /// <summary>The headlines that moved most between repetitions, worst first.</summary>
    public const int RepeatabilityRows = 25;

    /// <summary>What the floors of this run are: only the sockets that were measured (a run measures the floors its bindings need).</summary>
    internal static string FloorNote(IReadOnlyList<MeasurementRecord> records)
    {
        var unix = records.Any(r => r.Binding == NativeFloor.BlockingLabel);
        var tcp = records.Any(r => r.Binding == NativeFloor.TcpBlockingLabel);
        var note = "";
        if (unix)
        {
            note += $"The floor at each size is the faster of {NativeFloor.BlockingLabel} (blocking read and write on a Unix socket) and {NativeFloor.SpinningLabel} "
                + "(both sides poll a non-blocking socket, a busy core each)" + (tcp ? " for the bindings over a Unix socket, pipes and inproc. " : ". ");
        }

        if (tcp)
        {
            note += $"For the bindings that travel over TCP ({string.Join(", ", BindingNames.All.Where(BindingNames.TravelsOverTcp))}) the floor is the faster of "
                + $"{NativeFloor.TcpBlockingLabel} and {NativeFloor.TcpSpinningLabel}, the same C ping-pong over TCP on 127.0.0.1. ";
        }

        return note + "A slower floor's figure is its ratio to the faster over the same socket. ";
    }

    private static string Noisy(MeasurementRecord record, string text) => record.Noisy ? $"{text} {NoisyMark}" : text;

    private static string? PipesFaster(MeasurementRecord record)
    {
        var rate = record.CallsPerSecond.Median.ToString("#,0", s_culture);
        // inproc crosses no process boundary: "pipes −100%" against it would say nothing.
        return record.PipesFasterPercent is { } p && record.Binding is not (BindingNames.Pipes or BindingNames.InProc)
            ? Noisy(record, $"{rate} (pipes {p.Median.ToString("+#,0;-#,0;0", s_culture)}%)")
            : Noisy(record, rate);
    }

    /// <summary>Calls per second at each step, as a multiple of the one-client rate, and the step where each column peaked.</summary>
    private static ReportTable ScalingTable(IReadOnlyList<MeasurementRecord> records, IReadOnlyList<RefusedCell> refused)
    {
        var table = Matrix("scaling", "scaling: calls per second by concurrent clients, median (× the 1-client rate)", records, refused, record =>
        {
            var single = records.FirstOrDefault(r => r.Binding == record.Binding && r.Size == 1);
            var rate = Noisy(record, Number(record.CallsPerSecond.Median));
            return single is null ? rate : $"{rate} (×{(record.CallsPerSecond.Median / single.CallsPerSecond.Median).ToString("0.00", s_culture)})";
        }, "Each client on its own connection; /one-channel: every client's calls multiplexed on one gRPC channel. Two cores are shared by runner and host.");
        var peaks = table.Columns.Skip(1)
            .Select(binding => records.Where(r => r.Binding == binding).MaxBy(r => r.CallsPerSecond.Median) is { Size: { } clients } ? $"{clients} clients" : "–");
        return table with { Rows = [.. table.Rows, ["highest rate at", .. peaks]] };
    }

    /// <summary>One line per knob and binding: the product's setting, the other one, and what the difference is worth.</summary>
    private static ReportTable TuningTable(IReadOnlyList<MeasurementRecord> records, IReadOnlyList<RefusedCell> refused)
    {
        var product = records.Where(r => r.Variant is null).ToDictionary(r => (r.Operation, r.Size, r.Binding));
        var rows = new List<IReadOnlyList<string>>();
        foreach (var record in records.Where(r => r.Variant is not null))
        {
            var binding = record.Binding[..record.Binding.LastIndexOf('/')];
            var own = product.GetValueOrDefault((record.Operation, record.Size, binding));
            rows.Add([
                RowName(record.Suite, record.Operation, record.Size),
                binding,
                own is null ? "–" : Noisy(own, Number(own.CallsPerSecond.Median)),
                record.Variant!,
                Noisy(record, Number(record.CallsPerSecond.Median)),
                record.RatioToBindingSpread is { } r ? Noisy(record, Ratio(r)) : "–",
                $"{(own?.LatencyMicroseconds is { } a ? a.P99.ToString("#,0", s_culture) : "–")} / {(record.LatencyMicroseconds is { } b ? b.P99.ToString("#,0", s_culture) : "–")}",
            ]);
        }

        rows.AddRange(refused.Select(r => (IReadOnlyList<string>)[RowName(r.Suite, r.Operation, r.Size), r.Binding, CellText(r), "", "", "", ""]));
        return new ReportTable("tuning", "tuning: each knob against the product's setting, calls per second (median)",
            ["knob", "binding", "product's setting, calls/s", "variant", "variant, calls/s", "variant ÷ product, median (min–max) of side-by-side trials ± its interval", "p99 µs, product / variant"], rows,
            "per-session: CoreWCF's defaults (PerSession + ConcurrencyMode.Single) instead of Single + Multiple; serialized: Single + ConcurrencyMode.Single; " +
            "one-connection: gRPC client without EnableMultipleHttp2Connections; inline-io: DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 in the host. " +
            "Each binding's configuration, with the knob's, is listed under Bindings. " + IntervalNote);
    }

    private static ReportTable RepeatabilityTable(Repeatability repeatability)
    {
        var rows = repeatability.Headlines
            .OrderByDescending(h => h.MaxDeviation)
            .Take(RepeatabilityRows)
            .Select(h => (IReadOnlyList<string>)[
                $"{h.Suite} · {RowName(h.Suite, h.Operation, h.Size)} · {h.Binding}",
                h.Metric,
                .. h.Values.Select(v => Headline(h.Metric, v)),
                $"±{h.MaxDeviation.ToString("P1", s_culture)}"])
            .ToList();
        return new ReportTable("repeatability", $"repeatability: the {Math.Min(RepeatabilityRows, repeatability.Headlines.Count)} headline figures that moved most over {repeatability.Repetitions} repetitions",
            ["cell", "figure", .. Enumerable.Range(1, repeatability.Repetitions).Select(i => $"#{i}"), "max deviation"], rows,
            $"{repeatability.WithinTarget} of {repeatability.Headlines.Count} headline figures within ±{repeatability.TargetDeviation.ToString("P0", s_culture)} of their median; report.json lists all.");
    }

    private static string Headline(string metric, double value) =>
        metric == "overhead share" ? value.ToString("P1", s_culture) : value.ToString("0.000", s_culture);

    /// <summary>The text of a cell whose request the binding refused as over its message limit (see the refused list).</summary>
    public const string RefusedCellText = "refused: over limit";

    /// <summary>The text of a cell whose contract the binding cannot carry (see the refused list).</summary>
    public const string NotCarriedCellText = "refused: not carried";

    /// <summary>What a refused cell shows in a table.</summary>
    public static string CellText(RefusedCell cell) => cell.NotCarried ? NotCarriedCellText : RefusedCellText;

    /// <summary>The note under the refused list: what each cell text means, for the texts this report has.</summary>
    public static string RefusedNote(Report report) => string.Join(" ", new[]
    {
        report.Refused.Any(r => !r.NotCarried) ? $"Cells marked \"{RefusedCellText}\": the binding refused the request explicitly (QuotaExceeded), so there is no figure." : null,
        report.Refused.Any(r => r.NotCarried) ? $"Cells marked \"{NotCarriedCellText}\": the binding cannot carry the contract (its carry rule, below), so the contracts host left it out." : null,
    }.OfType<string>());

    private static ReportTable Matrix(string suite, string title, IReadOnlyList<MeasurementRecord> records, IReadOnlyList<RefusedCell> refused, Func<MeasurementRecord, string?> format, string? note)
    {
        var columns = records.Select(r => r.Binding).Concat(refused.Select(r => r.Binding)).Distinct().ToList();
        var rows = records.Select(r => RowName(r.Suite, r.Operation, r.Size)).Concat(refused.Select(r => RowName(r.Suite, r.Operation, r.Size))).Distinct().ToList();
        var cells = records.ToDictionary(r => (RowName(r.Suite, r.Operation, r.Size), r.Binding), format);
        foreach (var cell in refused)
        {
            cells[(RowName(cell.Suite, cell.Operation, cell.Size), cell.Binding)] = CellText(cell);
        }

        var body = rows.Select(row => (IReadOnlyList<string>)[row, .. columns.Select(c => cells.GetValueOrDefault((row, c)) ?? "–")]).ToList();
        return new ReportTable(suite, title, ["", .. columns], body, note);
    }

    /// <summary>Every refused cell in words, for the list under the tables.</summary>
    public static IReadOnlyList<string> RefusedList(Report report) =>
        [.. report.Refused.Select(r => $"{r.Suite} · {RowName(r.Suite, r.Operation, r.Size)} · {r.Binding}: {r.Reason}")];

    private static ReportTable BreakEvenTable(Report report)
    {
        var rows = report.BreakEven
            .Select(c => (IReadOnlyList<string>)[c.Sweep, c.Binding, .. c.Thresholds.Select(t => t.WorkMicroseconds is { } w ? $"{w:#,0.#} µs" : t.Note)])
            .ToList();
        return new ReportTable("breakeven", "breakeven: work per call (in-process time) at which the overhead share falls below",
            ["sweep", "binding", "< 10%", "< 1%"], rows, "Interpolated on a log scale between the two measured points around each threshold.");
    }

    private static string RowName(string suite, string operation, long? size) => size switch
    {
        null => operation,
        { } clients when suite is "scaling" or "tuning" => $"{operation}, {clients} client{(clients == 1 ? "" : "s")}",
        { } bytes when suite is "payload" or "pingpong" => $"{operation} {Bytes(bytes)}",
        { } count => $"{operation} = {count.ToString("#,0", s_culture)}",
    };

    private static string Bytes(long size) => size switch
    {
        >= 1_000_000 when size % 1_000_000 == 0 => $"{size / 1_000_000} MB",
        >= 1_000 when size % 1_000 == 0 => $"{size / 1_000} kB",
        _ => $"{size.ToString("#,0", s_culture)} B",
    };

    private static string? Cpu(MeasurementRecord m) => (m.ClientCpuMicrosecondsPerCall, m.HostCpuMicrosecondsPerCall) switch
    {
        (null, _) => null,
        ({ } client, null) => client.ToString("0.0", s_culture),
        ({ } client, { } host) => $"{client.ToString("0.0", s_culture)} + {host.ToString("0.0", s_culture)}",
    };

    private static string? Latency(MeasurementRecord record) =>
        record.LatencyMicroseconds is { } l ? $"{l.P50.ToString("0.0", s_culture)} / {l.P99.ToString("0.0", s_culture)}" : null;

    private static string Number(double value) => value.ToString("#,0", s_culture);

    private const string IntervalNote =
        "±: half the 95% confidence interval of the ratio's geometric mean over the paired trials (Student's t on their logarithms), relative to it.";

    /// <summary>A paired ratio: median (min–max) ±half its confidence interval.</summary>
    private static string Ratio(Measurement.Spread ratio) => Spread(ratio.Median, ratio.Min, ratio.Max, "0.000") + Interval(ratio);

    private static string Interval(Measurement.Spread ratio) =>
        ratio.Interval is { } interval ? " ±" + (interval.HalfWidth * 100).ToString("0.0", s_culture) + "%" : "";

    private static string Spread(double median, double min, double max, string format) =>
        $"{median.ToString(format, s_culture)} ({min.ToString(format, s_culture)}–{max.ToString(format, s_culture)})";
}
