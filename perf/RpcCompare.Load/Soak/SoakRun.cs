using System.Diagnostics;
using RpcCompare.Load.Reporting;
using RpcCompare.Load.Scenarios;
using Spectre.Console;

namespace RpcCompare.Load.Soak;

/// <summary>
/// --soak: each binding in turn held at a fixed rate for the soak's duration (one NBomber session,
/// a scenario per operation), while the host process is sampled every second from outside.
/// </summary>
internal static class SoakRun
{
    public static async Task<IReadOnlyList<SoakResult>> RunAsync(LoadContext context, SoakSettings settings, CancellationToken cancellationToken)
    {
        var host = context.Host
            ?? throw new InvalidOperationException("--soak samples the host process from this machine, so it needs the host the load command starts (not --host).");
        var results = new List<SoakResult>();
        foreach (var (index, binding) in context.Bindings.Index())
        {
            cancellationToken.ThrowIfCancellationRequested();
            context.Console.MarkupLineInterpolated(
                $"[bold][[{index + 1}/{context.Bindings.Count}]][/] soak {binding}: {string.Join(", ", context.Options.Operations.Select(o => o.Name))} at {settings.Rate:#,0}/s each for {settings.Duration.TotalMinutes:0.#} min, host sampled every second");
            var pools = context.Options.Operations.Select(o => new ClientPool(context.Factory, binding, context.Endpoints[binding], o)).ToList();
            try
            {
                var folder = Path.Combine(context.Directory, binding, "soak");
                await using var sampler = new HostSampler(host.ProcessId);
                var samples = new List<HostSample>();
                using var stop = new CancellationTokenSource();
                var clock = Stopwatch.StartNew();
                var sampling = SampleAsync(sampler, samples, clock, context.Console, stop.Token);
                var (stats, errors) = await NBomberSession.RunAsync(
                    binding,
                    "soak",
                    [.. context.Options.Operations.Zip(pools, (operation, pool) => new SessionScenario(
                        operation.Name, pool.CallAsync, operation.PayloadBytes, [LoadModels.OpenSimulation(settings.Rate, settings.Duration)]))],
                    folder);
                await stop.CancelAsync();
                await sampling;

                var ok = stats.ScenarioStats.Sum(s => s.Ok.Request.Count);
                var failed = stats.ScenarioStats.Sum(s => s.Fail.Request.Count);
                // NBomber gives percentiles per scenario; across several operations the slowest one's are the honest summary.
                var latency = stats.ScenarioStats.Select(s => LatencyFigures.From(s.Ok.Latency)).MaxBy(l => l.P99)!;
                var result = new SoakResult(binding, [.. context.Options.Operations.Select(o => o.Name)], settings.Rate, settings.Duration.TotalSeconds, ok, failed, latency,
                    samples, SoakVerdict.Judge(samples, failed), sampler.WhyNoCounters ?? "the runtime's System.Runtime counters over EventPipe, every second", errors.Values.FirstOrDefault(), folder);
                results.Add(result);
                if (result.Passed)
                {
                    context.Console.MarkupLineInterpolated($"    [green]passed[/]: {ok:#,0} calls, none failed; {Describe(samples)}");
                }
                else
                {
                    context.Console.MarkupLineInterpolated($"    [red]failed[/]: {string.Join("; ", result.Problems)}; {Describe(samples)}");
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

    /// <summary>First and last sample in words.</summary>
    public static string Describe(IReadOnlyList<HostSample> samples) => samples.Count == 0
        ? "no sample of the host"
        : $"RSS {samples[0].RssBytes / 1048576.0:0} → {samples[^1].RssBytes / 1048576.0:0} MB, descriptors {samples[0].Handles} → {samples[^1].Handles}, threads {samples[0].Threads} → {samples[^1].Threads}, gen-2 collections {samples[^1].Gen2Collections}";

    private static async Task SampleAsync(HostSampler sampler, List<HostSample> samples, Stopwatch clock, IAnsiConsole console, CancellationToken stop)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        try
        {
            while (await timer.WaitForNextTickAsync(stop))
            {
                if (sampler.Sample(clock.Elapsed.TotalSeconds) is not { } sample)
                {
                    console.MarkupLine("    [red]the host process is gone[/]");
                    return;
                }

                samples.Add(sample);
                if (samples.Count % 60 == 0)
                {
                    console.MarkupLineInterpolated($"    {sample.Seconds / 60:0} min: RSS {sample.RssBytes / 1048576.0:0} MB, GC heap {(sample.GcHeapBytes is { } heap ? $"{heap / 1048576.0:0} MB" : "–")}, descriptors {sample.Handles}, threads {sample.Threads}");
                }
            }
        }
        catch (OperationCanceledException)
        {
            // The soak ended.
        }
    }
}
