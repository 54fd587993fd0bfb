using RpcCompare.Perf.Hosting;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Reporting;
using RpcCompare.Runner.Suites;
using Spectre.Console;

namespace RpcCompare.Runner.Measurement;

/// <summary>The call suites' measurement loop: rows of cells, their trials interleaved.</summary>
internal static class InterleavedMeasurement
{
    /// <summary>
    /// Measures every row (one operation at one size) with its bindings' trials interleaved: every
    /// cell of the row is opened and warmed up, then trial 1 runs for each binding, then trial 2,
    /// each trial starting one binding later, so slow drift of the machine reaches every binding
    /// alike and trial t of two bindings ran side by side (the paired ratios rely on it); a
    /// ping-pong row's native floors (those of the sockets its bindings use) take their turns among them. With
    /// --repeat the whole selection runs again, same host, same order.
    /// </summary>
    public static async Task<(List<Repetition> Repetitions, List<RefusedCell> Refused)> MeasureAsync(
        TrialRunner runner, List<Workload> workloads, NativeFloor? native, int repeat, CpuPlacement pin, IAnsiConsole console, CancellationToken cancellationToken)
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
        // Only the floors some measured binding is compared with: no TCP floor for a Unix-socket-only run.
        var floorLabels = NativeFloor.LabelsFor(workloads.Where(w => w.Suite == PingPongSuite.SuiteName).Select(w => w.Target.Binding));
        var rows = workloads.GroupBy(w => (w.Suite, w.Operation, w.Size)).Select(g => g.ToList()).ToList();
        var planned = (workloads.Count * settings.WarmUp.TotalSeconds)
            + (repeat * ((workloads.Count * cellSeconds) + (nativeSizes.Length * floorLabels.Count * settings.Trials * trialSeconds)));
        var repetitions = new List<Repetition>();
        var refused = new List<RefusedCell>();
        var progress = new RunProgress(console, planned);
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

            for (var r = 1; r <= repeat; r++)
            {
                var repetition = new Repetition(r, [], []);
                var prefix = repeat > 1 ? $"[repetition {r}/{repeat}] " : "";
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

                        // A ping-pong row's native floors take their turns in the rotation like bindings,
                        // so the ratio to them pairs trials that ran side by side too.
                        var nativeSize = first.Suite == PingPongSuite.SuiteName && first.Size is { } echo && nativeSizes.Contains((int)echo) ? (int?)echo : null;
                        var floors = nativeSize is null ? [] : floorLabels;
                        var nativeRates = floors.ToDictionary(floor => floor, _ => new List<double>());
                        var turns = open.Count + floors.Count;
                        // The minimum, then more while a ratio of the row is wider than the target (PrecisionRule), up to the most.
                        IReadOnlyList<string> wide = [];
                        for (var trial = 1; trial <= settings.Trials || (trial <= settings.MaxTrials && (wide = Wide(settings, open)).Count > 0); trial++)
                        {
                            var trialLabel = trial <= settings.Trials ? $"trial {trial}/{settings.Trials}" : $"trial {trial} (up to {settings.MaxTrials}: {string.Join(", ", wide)})";
                            if (trial > settings.Trials)
                            {
                                progress.Extend(turns * trialSeconds);
                            }

                            if (trial == settings.Trials + 1)
                            {
                                progress.Completed($"{rowLabel}: wider than ±{settings.Precision!.TargetHalfWidth * 100:0.#}% after {settings.Trials} trials: {string.Join(", ", wide)}; more trials, up to {settings.MaxTrials}");
                            }

                            foreach (var index in TrialOrder.For(trial, turns))
                            {
                                if (index >= open.Count)
                                {
                                    var floor = floors[index - open.Count];
                                    report($"{rowLabel} · {trialLabel} · {floor}", 0);
                                    nativeRates[floor].Add(native!.MeasureTrial(floor, nativeSize!.Value, settings.TrialDuration, pin));
                                    report(null, trialSeconds);
                                    continue;
                                }

                                var cell = open[index];
                                report($"{rowLabel} · {trialLabel} · {cell.Workload.Target.Label}", 0);
                                await cell.RunTrialAsync();
                                report(null, trialSeconds);
                            }
                        }

                        if (settings.MaxTrials > settings.Trials && Wide(settings, open) is { Count: > 0 } stillWide)
                        {
                            progress.Completed($"{rowLabel}: still wider than ±{settings.Precision!.TargetHalfWidth * 100:0.#}% after {settings.MaxTrials} trials: {string.Join(", ", stillWide)}");
                        }

                        foreach (var (floor, rates) in nativeRates)
                        {
                            repetition.Native[(floor, nativeSize!.Value)] = rates;
                            progress.Completed($"{rowLabel} · {floor}: {Statistics.Median([.. rates]):#,0} round trips/s");
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

    // The row's ratios wider than the precision target so far (none without a rule).
    private static IReadOnlyList<string> Wide(MeasurementSettings settings, List<TrialRunner.OpenCell> open) =>
        settings.Precision is { } rule
            ? rule.Wide([.. open.Select(c => new PrecisionRule.CellTrials(c.Workload.Target.Label, c.Workload.Target.Binding, c.Workload.Target.Variant,
                [.. c.Trials.Select(t => t.CallsPerSecond)]))])
            : [];
}
