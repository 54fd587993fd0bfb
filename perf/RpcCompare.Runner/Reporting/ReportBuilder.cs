using RpcCompare.Bindings;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Reporting;

/// <summary>
/// Turns measured cells into report records and derives every ratio from figures of the same run:
/// against the raw pipes binding, against the native floor, and the in-process overhead share.
/// </summary>
internal static class ReportBuilder
{
    public static readonly double[] BreakEvenShares = [0.10, 0.01];

    /// <summary>The repeatability goal: every headline within ±5% of its median across repetitions.</summary>
    public const double RepeatabilityTarget = 0.05;

    /// <summary>One record per cell, with every ratio and share computed from trials that ran side by side.</summary>
    /// <param name="cells">The measured cells (pooled over repetitions).</param>
    /// <param name="native">Each native floor's round trips per second in each trial, by floor and message size.</param>
    /// <param name="noiseThreshold">Trials spanning more than this share of their median mark the cell noisy.</param>
    /// <param name="hostAllocations">Bytes the host allocated per call, for the cells it was read for.</param>
    public static IReadOnlyList<MeasurementRecord> Measurements(IReadOnlyList<CellResult> cells, IReadOnlyDictionary<(string Floor, int Size), List<double>> native, double noiseThreshold,
        IReadOnlyDictionary<CellResult, double>? hostAllocations = null)
    {
        var byKey = cells.ToDictionary(c => Key(c));
        var floors = Floors(native);
        var records = new List<MeasurementRecord>();
        foreach (var cell in cells)
        {
            var workload = cell.Workload;
            var pipes = byKey.GetValueOrDefault(Key(cell, BindingNames.Pipes));
            var inproc = byKey.GetValueOrDefault(Key(cell, BindingNames.InProc));
            // Ratios pair trial t of one cell with trial t of the other: they ran side by side.
            var ratioToPipes = pipes is null ? null : PairedRatio(cell, pipes);
            var pipesFaster = pipes is null ? null : Paired(cell, pipes, (c, p) => ((p / c) - 1) * 100);
            // 1 − t(inproc)/t(binding) with t = clients / rate: 1 − rate(binding)/rate(inproc).
            var overheadShare = inproc is null ? null : Paired(cell, inproc, (c, i) => 1 - (c / i));
            // A knob's column against the same binding as the product configures it.
            var product = workload.Target.Variant is null ? null : byKey.GetValueOrDefault(Key(cell, workload.Target.Binding));
            var ratioToBinding = product is null ? null : PairedRatio(cell, product);
            var trialSpread = Relative(cell.CallsPerSecond);
            var noisy = trialSpread > noiseThreshold
                || (ratioToPipes is { } pairs && Relative(pairs) > noiseThreshold)
                || (ratioToBinding is { } knob && Relative(knob) > noiseThreshold);
            // The floor is one pair of processes: only a one-client rate compares with it. Its
            // trials took turns with the row's, so trial t pairs with trial t.
            var ratioToNative = workload.Suite == "pingpong" && cell.Clients == 1 && workload.Size is { } size
                && floors.TryGetValue((NativeFloor.KindOfBinding(workload.Target.Binding), (int)size), out var floor)
                ? PairedRatio([.. cell.Trials.Select(t => t.CallsPerSecond)], floor.Rates)
                : null;
            records.Add(new MeasurementRecord(
                workload.Suite,
                workload.Operation,
                workload.Target.Label,
                workload.Size,
                workload.PayloadBytes,
                cell.Clients,
                cell.CallsPerSecond,
                cell.LatencyMicroseconds,
                cell.AllocatedBytesPerCall,
                workload.Suite == "payload" ? cell.CallsPerSecond.Scale(workload.PayloadBytes / 1e6) : null,
                ratioToNative,
                cell.Trials.Count,
                cell.TotalCalls,
                ratioToPipes,
                pipesFaster,
                overheadShare,
                trialSpread,
                noisy,
                hostAllocations?.TryGetValue(cell, out var host) == true ? host : null,
                workload.Target.Variant,
                ratioToBinding)
            {
                ClientCpuMicrosecondsPerCall = cell.ClientCpuMicrosecondsPerCall,
                HostCpuMicrosecondsPerCall = cell.HostCpuMicrosecondsPerCall,
            });
        }

        foreach (var ((label, size), rates) in native.OrderBy(n => n.Key.Size).ThenBy(n => n.Key.Floor, StringComparer.Ordinal))
        {
            var rate = new Spread(Statistics.Median([.. rates]), rates.Min(), rates.Max());
            // The slower floor's ratio to the faster of its socket says what sleeping costs per hop; the floor itself has none.
            var fastest = floors[(NativeFloor.KindOfFloor(label), size)];
            var toFloor = fastest.Label == label ? null : PairedRatio(rates, fastest.Rates);
            records.Add(new MeasurementRecord("pingpong", "echo", label, size, 2L * size, 1, rate, null, null, null, toFloor, rates.Count, 0,
                null, null, null, Relative(rate), Relative(rate) > noiseThreshold, null, null, null));
        }

        return records;
    }

    /// <summary>
    /// At each size and over each kind of socket, the faster native floor (by median): "the floor" every
    /// binding over that socket is compared with, whichever way of waiting reached it.
    /// </summary>
    private static Dictionary<(NativeFloor.SocketKind Socket, int Size), (string Label, List<double> Rates)> Floors(IReadOnlyDictionary<(string Floor, int Size), List<double>> native) =>
        native.GroupBy(n => (NativeFloor.KindOfFloor(n.Key.Floor), n.Key.Size)).ToDictionary(
            g => g.Key,
            g => g.Select(n => (Label: n.Key.Floor, Rates: n.Value)).MaxBy(n => Statistics.Median([.. n.Rates])));

    /// <summary>
    /// Per binding and sweep, the overhead share at each amount of work, and the work time per
    /// call (the in-process time) at which the share first falls below 10% and 1%.
    /// </summary>
    public static IReadOnlyList<BreakEvenCurve> BreakEven(IReadOnlyList<CellResult> cells)
    {
        var curves = new List<BreakEvenCurve>();
        var sweeps = cells.Where(c => c.Workload.Suite == "breakeven").GroupBy(c => (c.Workload.Operation, c.Workload.Target.Label));
        var inproc = cells.Where(c => c.Workload.Suite == "breakeven" && c.Workload.Target.Binding == BindingNames.InProc)
            .ToDictionary(c => (c.Workload.Operation, c.Workload.Size));
        foreach (var sweep in sweeps)
        {
            if (sweep.First().Workload.Target.Binding == BindingNames.InProc)
            {
                continue;
            }

            // The same paired share as the cell's overheadShare in the tables, so curve and table agree.
            var points = sweep
                .Where(c => inproc.ContainsKey((c.Workload.Operation, c.Workload.Size)))
                .Select(c => (Cell: c, Floor: inproc[(c.Workload.Operation, c.Workload.Size)]))
                .Select(p => (p.Cell, p.Floor, Share: Paired(p.Cell, p.Floor, (b, i) => 1 - (b / i))))
                .Where(p => p.Share is not null)
                .Select(p => new BreakEvenPoint(p.Cell.Workload.Size ?? 0, p.Floor.MicrosecondsPerCall, p.Share!.Median))
                .OrderBy(p => p.WorkMicroseconds)
                .ToList();
            if (points.Count == 0)
            {
                continue;
            }

            curves.Add(new BreakEvenCurve(sweep.Key.Operation, sweep.Key.Label, points, [.. BreakEvenShares.Select(s => Threshold(points, s))]));
        }

        return curves;
    }

    /// <summary>
    /// Per binding headline (ratio to pipes, overhead share, ratio to the native floor, a knob's
    /// ratio to the binding as the product configures it), its value
    /// in every repetition and its largest deviation from their median; null for one repetition.
    /// </summary>
    public static Repeatability? Repeatability(IReadOnlyList<Repetition> repetitions, double noiseThreshold)
    {
        if (repetitions.Count < 2)
        {
            return null;
        }

        var values = new Dictionary<(string Suite, string Operation, long? Size, string Binding, string Metric), List<double>>();
        foreach (var repetition in repetitions)
        {
            foreach (var record in Measurements(repetition.Cells, repetition.Native, noiseThreshold))
            {
                // A binding's ratio to itself (pipes) or share against itself (inproc) says nothing.
                Add(record, "ratio to pipes", record.Binding == BindingNames.Pipes ? null : record.RatioToPipes);
                Add(record, "overhead share", record.Binding == BindingNames.InProc ? null : record.OverheadShare);
                Add(record, "ratio to native", record.RatioToNative);
                Add(record, "ratio to binding", record.RatioToBindingSpread?.Median);
            }
        }

        var headlines = values
            .Where(v => v.Value.Count == repetitions.Count)
            .Select(v =>
            {
                var median = Statistics.Median(v.Value);
                var deviation = median == 0 ? 0 : v.Value.Max(x => Math.Abs(x - median)) / Math.Abs(median);
                return new HeadlineMovement(v.Key.Suite, v.Key.Operation, v.Key.Size, v.Key.Binding, v.Key.Metric, v.Value, median, deviation);
            })
            .ToList();
        return new Repeatability(repetitions.Count, RepeatabilityTarget, headlines);

        void Add(MeasurementRecord record, string metric, double? value)
        {
            if (value is not { } v)
            {
                return;
            }

            var key = (record.Suite, record.Operation, record.Size, record.Binding, metric);
            if (!values.TryGetValue(key, out var list))
            {
                values[key] = list = [];
            }

            list.Add(v);
        }
    }

    /// <summary>f(trial t of <paramref name="cell"/>, trial t of <paramref name="other"/>) for every t: median, min, max.</summary>
    private static Spread? Paired(CellResult cell, CellResult other, Func<double, double, double> f) =>
        Paired([.. cell.Trials.Select(t => t.CallsPerSecond)], [.. other.Trials.Select(t => t.CallsPerSecond)], f);

    private static Spread? Paired(List<double> rates, List<double> others, Func<double, double, double> f)
    {
        if (rates.Count != others.Count || rates.Count == 0)
        {
            return null;
        }

        return Summary([.. rates.Zip(others, f)]);
    }

    private static Spread Summary(double[] pairs) => new(Statistics.Median(pairs), pairs.Min(), pairs.Max());

    /// <summary>Trial t over trial t as <see cref="Paired(CellResult, CellResult, Func{double, double, double})"/>, with the ratio's confidence interval.</summary>
    private static Spread? PairedRatio(CellResult cell, CellResult other) =>
        PairedRatio([.. cell.Trials.Select(t => t.CallsPerSecond)], [.. other.Trials.Select(t => t.CallsPerSecond)]);

    private static Spread? PairedRatio(List<double> rates, List<double> others) =>
        RatioInterval.PairedRatios(rates, others) is { } ratios ? Summary(ratios) with { Interval = RatioInterval.Of(ratios) } : null;

    /// <summary>(max − min) / median: how far apart the trials are, relative to the figure.</summary>
    private static double Relative(Spread spread) => spread.Median == 0 ? 0 : (spread.Max - spread.Min) / Math.Abs(spread.Median);

    // Interpolates on a log scale of work time between the last point above and the first below.
    internal static BreakEvenThreshold Threshold(List<BreakEvenPoint> points, double share)
    {
        if (points[0].OverheadShare < share)
        {
            return new(share, points[0].WorkMicroseconds, $"already below at the smallest work measured ({points[0].WorkMicroseconds:0.#} µs)");
        }

        for (var i = 1; i < points.Count; i++)
        {
            var (above, below) = (points[i - 1], points[i]);
            if (below.OverheadShare < share)
            {
                var fraction = (above.OverheadShare - share) / (above.OverheadShare - below.OverheadShare);
                var logWork = Math.Log(above.WorkMicroseconds) + fraction * (Math.Log(below.WorkMicroseconds) - Math.Log(above.WorkMicroseconds));
                return new(share, Math.Exp(logWork), $"between {above.WorkMicroseconds:0.#} µs and {below.WorkMicroseconds:0.#} µs of work per call");
            }
        }

        var last = points[^1];
        return new(share, null, $"not reached: still {last.OverheadShare:P1} at {last.WorkMicroseconds:0.#} µs, the most work measured");
    }

    /// <summary>The cell's place in the tables, under its own column or under <paramref name="label"/>'s.</summary>
    private static (string, string, long?, int, string) Key(CellResult cell, string? label = null) =>
        (cell.Workload.Suite, cell.Workload.Operation, cell.Workload.Size, cell.Clients, label ?? cell.Workload.Target.Label);
}
