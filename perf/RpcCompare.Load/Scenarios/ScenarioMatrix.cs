using NBomber.Contracts;
using RpcCompare.Load.Reporting;
using Spectre.Console;

namespace RpcCompare.Load.Scenarios;

/// <summary>
/// The default load run: every operation under every model, per binding. A binding's scenarios run
/// in one NBomber session, one after the other (each waits out the ones before it with NBomber's
/// pause simulation, which NBomber leaves out of its rates), so no two scenarios share the machine
/// and NBomber's fixed 3 s at the end of a session is paid once per binding, not per scenario.
/// </summary>
internal static class ScenarioMatrix
{
    public static async Task<IReadOnlyList<LoadResult>> RunAsync(LoadContext context, CancellationToken cancellationToken)
    {
        var settings = context.Options.Settings;
        var cells = (from operation in context.Options.Operations from model in context.Options.Models select (operation, model)).ToList();
        context.Console.MarkupLineInterpolated(
            $"{context.Bindings.Count} NBomber sessions (one per binding) of {cells.Count} scenarios × {settings.Span.TotalSeconds:0.#} s, about {context.Bindings.Count * ((cells.Count * (settings.Span + settings.WarmUp).TotalSeconds) + 3.5) / 60:0.#} min in all.");
        var results = new List<LoadResult>();
        foreach (var (index, binding) in context.Bindings.Index())
        {
            cancellationToken.ThrowIfCancellationRequested();
            var label = context.Label(binding);
            context.Console.MarkupLineInterpolated($"[bold][[{index + 1}/{context.Bindings.Count}]][/] {label}: {string.Join(", ", cells.Select(c => $"{c.operation.Name} {c.model.Name()}"))}");
            var pools = cells.Select(c => new ClientPool(context.Factory, binding, context.Endpoints[binding], c.operation)).ToList();
            try
            {
                // Every user's client connects with one unmeasured call even with no warm-up, so a
                // scenario never times connection set-up: on a busy CI machine two new wcf-http
                // clients outlasted a whole 1-s --quick scenario, which then had no call at all.
                foreach (var pool in pools)
                {
                    await pool.WarmUpAsync(settings.Users, settings.WarmUp, atLeastOneCall: true);
                }

                var scenarios = cells.Select((cell, position) =>
                {
                    LoadSimulation[] simulation = position == 0
                        ? cell.model.Simulation(settings)
                        : [NBomber.CSharp.Simulation.Pause(position * settings.Span), .. cell.model.Simulation(settings)];
                    return new SessionScenario($"{cell.operation.Name}-{cell.model.Name()}", pools[position].CallAsync, cell.operation.PayloadBytes, simulation);
                }).ToList();
                // NBomber names its report files after the session: "wcf-nettcp-tls", not a path.
                var (stats, errors) = await NBomberSession.RunAsync(label, label.Replace('/', '-'), scenarios, Path.Combine(context.Directory, label));
                foreach (var (position, (operation, model)) in cells.Index())
                {
                    var scenario = stats.ScenarioStats.Single(s => s.ScenarioName == scenarios[position].Name);
                    var result = LoadResult.From(label, operation, model, model.Describe(settings), scenario, [.. stats.ReportFiles.Select(f => f.FilePath)],
                        pools[position].Created, errors.GetValueOrDefault(scenario.ScenarioName));
                    results.Add(result);
                    context.Console.MarkupLineInterpolated($"    {operation.Name} {model.Name()}: {result.Ok:#,0} ok, {result.Failed:#,0} failed, {result.RequestsPerSecond:#,0.#} calls/s, p99 {result.Latency.P99:0.##} ms");
                }
            }
            finally
            {
                foreach (var pool in pools)
                {
                    await pool.DisposeAsync();
                }
            }
        }

        return results;
    }
}
