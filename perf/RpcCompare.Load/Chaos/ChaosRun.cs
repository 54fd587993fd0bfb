using System.Collections.Concurrent;
using System.Diagnostics;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Load.Scenarios;
using Spectre.Console;

namespace RpcCompare.Load.Chaos;

/// <summary>
/// --chaos kill-host: every binding writes sequence-numbered records in closed loops (one NBomber
/// session, a scenario per binding); partway through, the host is killed with SIGKILL and started
/// again on the same addresses and data root. Measures the failed calls and their errors, how long
/// each binding took to serve again, and whether the file holds every write a client saw acknowledged.
/// </summary>
internal static class ChaosRun
{
    public static async Task<ChaosResult> RunAsync(LoadContext context, ChaosSettings settings, CancellationToken cancellationToken)
    {
        var host = context.Host
            ?? throw new InvalidOperationException("--chaos kill-host kills and restarts the host, so it needs the host the load command starts (not --host).");
        using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { ConnectTimeout = settings.ConnectTimeout });
        var bindings = context.Bindings.Select((binding, index) => new BindingUnderChaos(
            binding, new WriteLedger(host.DataRoot, binding, index, ChaosSettings.LedgerCapacity))).ToList();
        var pools = bindings.Select(b => new ClientPool(factory, b.Binding, context.Endpoints[b.Binding], b.Operation)).ToList();
        try
        {
            context.Console.MarkupLineInterpolated(
                $"kill -9 of the host: {settings.Users} users per binding writing numbered records for {settings.Duration.TotalSeconds:0.#} s; the host is killed at {settings.KillAfter.TotalSeconds:0.#} s and restarted at once");
            var clock = Stopwatch.StartNew();
            var killedAt = double.NaN;
            var restartSeconds = double.NaN;
            var addressesBefore = host.Endpoints;
            var chaos = Task.Run(async () =>
            {
                await Task.Delay(settings.KillAfter, cancellationToken);
                await host.KillAsync();
                killedAt = clock.Elapsed.TotalSeconds;
                foreach (var binding in bindings)
                {
                    binding.KilledAt = killedAt;
                }

                context.Console.MarkupLineInterpolated($"    {killedAt:0.00} s: host killed (SIGKILL)");
                await host.RestartAsync();
                restartSeconds = clock.Elapsed.TotalSeconds - killedAt;
                context.Console.MarkupLineInterpolated($"    {clock.Elapsed.TotalSeconds:0.00} s: host serving again after {restartSeconds:0.00} s");
            }, cancellationToken);

            var (stats, _) = await NBomberSession.RunAsync(
                "all",
                "chaos-kill-host",
                [.. bindings.Zip(pools, (binding, pool) => new SessionScenario(
                    binding.Binding,
                    () => binding.CallAsync(pool, clock),
                    WriteLedger.RecordSize,
                    [NBomber.CSharp.Simulation.KeepConstant(settings.Users, settings.Duration)]))],
                Path.Combine(context.Directory, "chaos"));
            await chaos;
            await ConfirmRecoveryAsync(bindings, pools, clock, settings, cancellationToken);

            var sameAddresses = addressesBefore.Count == host.Endpoints.Count && addressesBefore.All(e => host.Endpoints.GetValueOrDefault(e.Key) == e.Value);
            var results = bindings.Select(binding =>
            {
                var scenario = stats.ScenarioStats.Single(s => s.ScenarioName == binding.Binding);
                var writes = binding.Ledger.Verify();
                var recovery = binding.FirstSuccessAfterKill - killedAt;
                var problems = new List<string>();
                if (writes.Lost > 0)
                {
                    problems.Add($"{writes.Lost:#,0} acknowledged writes are not in the file (first: {string.Join(", ", writes.FirstLost)})");
                }

                if (double.IsNaN(recovery))
                {
                    problems.Add("no call succeeded after the kill");
                }

                var limit = settings.ConnectTimeout + ChaosSettings.HangMargin;
                if (binding.LongestCallMs > limit.TotalMilliseconds)
                {
                    problems.Add($"a call took {binding.LongestCallMs / 1000:0.#} s, past the {settings.ConnectTimeout.TotalSeconds:0} s timeout");
                }

                return new ChaosBindingResult(binding.Binding, scenario.Ok.Request.Count + binding.ConfirmationOk, scenario.Fail.Request.Count + binding.ConfirmationFailed,
                    [.. binding.Errors.OrderByDescending(e => e.Value).Select(e => new ErrorCount(e.Key, e.Value))],
                    binding.LongestCallMs, double.IsNaN(recovery) ? null : recovery, writes, problems);
            }).ToList();
            foreach (var result in results)
            {
                context.Console.MarkupLineInterpolated(
                    $"    {result.Binding}: {result.Ok:#,0} ok, {result.Failed:#,0} failed, serving again {(result.RecoverySeconds is { } r ? $"{r:0.00} s" : "never")} after the kill; writes acknowledged {result.Writes.Acknowledged:#,0}, in the file {result.Writes.Verified:#,0}, lost {result.Writes.Lost:#,0}");
            }

            return new ChaosResult(killedAt, restartSeconds, sameAddresses, results);
        }
        finally
        {
            foreach (var pool in pools)
            {
                await pool.DisposeAsync();
            }
        }
    }

    /// <summary>
    /// A host that comes back after the load's window (a busy machine restarted it in 9 s once, in an
    /// 8-s window) has had no call to serve: each binding still without a success after the kill is
    /// called until it answers or a bound passes, so whether it serves again is measured, not
    /// assumed either way.
    /// </summary>
    private static async Task ConfirmRecoveryAsync(IReadOnlyList<BindingUnderChaos> bindings, IReadOnlyList<ClientPool> pools, Stopwatch clock, ChaosSettings settings, CancellationToken cancellationToken)
    {
        var deadline = clock.Elapsed + (3 * settings.ConnectTimeout);
        foreach (var (binding, pool) in bindings.Zip(pools))
        {
            while (double.IsNaN(binding.FirstSuccessAfterKill) && clock.Elapsed < deadline)
            {
                cancellationToken.ThrowIfCancellationRequested();
                try
                {
                    await binding.CallAsync(pool, clock);
                    binding.ConfirmationOk++;
                }
                catch (Exception exception) when (exception is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
                {
                    binding.ConfirmationFailed++; // Counted in the binding's errors by CallAsync.
                }
            }
        }
    }

    /// <summary>One binding's writes and what its calls saw.</summary>
    private sealed class BindingUnderChaos
    {
        private long _firstSuccessAfterKillTicks = -1;
        private long _longestCallTicks;

        public BindingUnderChaos(string binding, WriteLedger ledger)
        {
            Binding = binding;
            Ledger = ledger;
            Operation = new LoadOperation("write-sequence", WriteLedger.RecordSize, session =>
            {
                var files = session.Get<IFileService>();
                return async () =>
                {
                    var (sequence, request) = ledger.Next();
                    await files.WriteAtAsync(request);
                    ledger.Acknowledge(sequence);
                };
            });
        }

        public string Binding { get; }

        public WriteLedger Ledger { get; }

        public LoadOperation Operation { get; }

        public double KilledAt { get; set; } = double.PositiveInfinity;

        public ConcurrentDictionary<string, long> Errors { get; } = new();

        /// <summary>Seconds into the load when the first call started after the kill succeeded; NaN when none did.</summary>
        public double FirstSuccessAfterKill => Interlocked.Read(ref _firstSuccessAfterKillTicks) is >= 0 and var ticks ? TimeSpan.FromTicks(ticks).TotalSeconds : double.NaN;

        public double LongestCallMs => TimeSpan.FromTicks(Interlocked.Read(ref _longestCallTicks)).TotalMilliseconds;

        /// <summary>Calls made after the load's window by <see cref="ConfirmRecoveryAsync"/>, counted beside NBomber's.</summary>
        public int ConfirmationOk { get; set; }

        /// <inheritdoc cref="ConfirmationOk"/>
        public int ConfirmationFailed { get; set; }

        public async Task CallAsync(ClientPool pool, Stopwatch clock)
        {
            var started = clock.Elapsed;
            try
            {
                await pool.CallAsync();
                if (started.TotalSeconds >= KilledAt)
                {
                    Interlocked.CompareExchange(ref _firstSuccessAfterKillTicks, clock.Elapsed.Ticks, -1);
                }
            }
            catch (Exception exception)
            {
                Errors.AddOrUpdate($"{exception.GetType().Name}: {exception.Message}", 1, (_, count) => count + 1);
                await Task.Delay(ChaosSettings.RetryPause);
                throw;
            }
            finally
            {
                var took = (clock.Elapsed - started).Ticks;
                var longest = Interlocked.Read(ref _longestCallTicks);
                while (took > longest && Interlocked.CompareExchange(ref _longestCallTicks, took, longest) != longest)
                {
                    longest = Interlocked.Read(ref _longestCallTicks);
                }
            }
        }
    }
}
