using System.Globalization;
using RpcCompare.Load.Reporting;
using RpcCompare.Load.Scenarios;
using Spectre.Console;

namespace RpcCompare.Load.Capacity;

/// <summary>
/// --find-max: per binding and operation, the highest open-model rate that holds for a whole step
/// with p99 within the latency budget and no failed call (<see cref="CapacitySearch"/>). Each step
/// is its own NBomber session, so its statistics (and reports) are NBomber's own.
/// </summary>
internal static class CapacityRun
{
    private static readonly TimeSpan s_settleAfterBrokenStep = TimeSpan.FromSeconds(2);

    public static async Task<IReadOnlyList<CapacityResult>> RunAsync(LoadContext context, CancellationToken cancellationToken)
    {
        var settings = context.Options.Capacity;
        var results = new List<CapacityResult>();
        var cells = (from binding in context.Bindings from operation in context.Options.Operations select (binding, operation)).ToList();
        foreach (var (index, (binding, operation)) in cells.Index())
        {
            cancellationToken.ThrowIfCancellationRequested();
            var label = context.Label(binding);
            context.Console.MarkupLineInterpolated($"[bold][[{index + 1}/{cells.Count}]][/] {label} · {operation.Name}: finding the highest rate with p99 ≤ {settings.LatencyBudgetMs:0.##} ms");
            var folder = Path.Combine(context.Directory, label, $"{operation.Name}-find-max");
            string? firstError = null;
            // One pool for the whole search, warmed first: a step that opened its connections while
            // measured would judge connection set-up, not calls (gRPC's first step at 500/s: p99 110 ms
            // with a fresh pool, under 2 ms warmed).
            await using var pool = new ClientPool(context.Factory, binding, context.Endpoints[binding], operation);
            await pool.WarmUpAsync(context.Options.Settings.Users, TimeSpan.FromSeconds(Math.Max(0.5, context.Options.Settings.WarmUp.TotalSeconds)));
            var (capacity, steps) = await CapacitySearch.RunAsync(settings, async rate =>
            {
                cancellationToken.ThrowIfCancellationRequested();
                // Connections for the calls this rate overlaps (a burst every ~10 ms, twice over, plus
                // the warm-up's), opened before the step: WCF NetTcp broke at 4,000/s with p99 40 ms
                // when the step opened its 80 extra channels itself, and held 3,750/s with them open.
                await pool.GrowToAsync((2 * LoadModels.CallsPerInterval(rate)) + context.Options.Settings.Users);
                var (stats, error) = await NBomberSession.RunAsync(
                    label,
                    $"{operation.Name}-{rate.ToString(CultureInfo.InvariantCulture)}-per-s",
                    pool.CallAsync,
                    operation.PayloadBytes,
                    [LoadModels.OpenSimulation(rate, settings.Step)],
                    Path.Combine(folder, rate.ToString(CultureInfo.InvariantCulture)));
                firstError ??= error;
                var scenario = stats.ScenarioStats.Single();
                var step = CapacityStep.Judge(rate, settings.Step, scenario.Ok.Request.Count, scenario.Fail.Request.Count, scenario.Ok.Request.RPS,
                    LatencyFigures.From(scenario.Ok.Latency), scenario.Ok.DataTransfer.AllBytes, pool.Created, settings.LatencyBudgetMs);
                context.Console.MarkupLineInterpolated($"    {rate,9:#,0}/s: {step.Verdict} ({step.RequestsPerSecond:#,0} calls/s, p99 {step.Latency.P99:0.##} ms)");
                if (!step.Held)
                {
                    // An overloaded step leaves a backlog in the host; without a pause it spilled into
                    // the next, lower step (wcf-nettcp Ping: 12,000/s failed right after 16,000/s, then held in a later run).
                    await Task.Delay(s_settleAfterBrokenStep, cancellationToken);
                }

                return step;
            });

            var ceiling = capacity == settings.MaxRate;
            var limit = ceiling
                ? $"still held at the search's ceiling ({settings.MaxRate:#,0}/s)"
                : steps.FirstOrDefault(s => !s.Held && s.Rate > (capacity ?? 0)) is { } broke ? $"{broke.Rate:#,0}/s: {broke.Verdict}" : "";
            var result = new CapacityResult(label, operation.Name, capacity, ceiling, limit, steps, firstError, folder);
            results.Add(result);
            context.Console.MarkupLineInterpolated($"    capacity [bold]{(capacity is { } c ? c.ToString("#,0", CultureInfo.InvariantCulture) + "/s" : "none")}[/] ({limit})");
        }

        return results;
    }
}
