using System.Diagnostics;
using NBomber.Contracts.Stats;
using RpcCompare.Client;
using RpcCompare.Load.Scenarios;
using Spectre.Console;

namespace RpcCompare.Load.Chaos;

/// <summary>
/// --chaos: every binding writes sequence-numbered records in closed loops (one NBomber session, a
/// scenario per binding); partway through, kill-host kills the host with SIGKILL and starts it again
/// on the same addresses and data root, and kill-replica runs the user's command that kills one
/// replica of a fleet the load reaches through its balancer (with push subscribers on every replica,
/// <see cref="PushUnderChaos"/>). Measures the failed calls and their errors, how long each binding
/// took to serve again, and whether the files hold every write a client saw acknowledged.
/// </summary>
internal static class ChaosRun
{
    public static async Task<ChaosResult> RunAsync(LoadContext context, ChaosSettings settings, CancellationToken cancellationToken)
    {
        var replica = settings.Target == ChaosTarget.Replica;
        var host = context.Host;
        var dataRoot = replica
            ? settings.DataRoot ?? throw new InvalidOperationException("--chaos kill-replica reads the written files back from the fleet's data root: give --data-root.")
            : host?.DataRoot ?? throw new InvalidOperationException("--chaos kill-host kills and restarts the host, so it needs the host the load command starts (not --host).");
        using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { ConnectTimeout = settings.ConnectTimeout });
        var bindings = context.Bindings.Select((binding, index) => new BindingUnderChaos(
            binding, new WriteLedger(dataRoot, binding, index, ChaosSettings.LedgerCapacity))).ToList();
        var pools = bindings.Select(b => new ClientPool(factory, b.Binding, context.Endpoints[b.Binding], b.Operation)).ToList();
        try
        {
            context.Console.MarkupLineInterpolated(replica
                ? (FormattableString)$"kill -9 of a replica: {settings.Users} users per binding writing numbered records through the balancer for {settings.Duration.TotalSeconds:0.#} s; at {settings.KillAfter.TotalSeconds:0.#} s `{settings.KillCommand}` kills one replica, which stays dead"
                : $"kill -9 of the host: {settings.Users} users per binding writing numbered records for {settings.Duration.TotalSeconds:0.#} s; the host is killed at {settings.KillAfter.TotalSeconds:0.#} s and restarted at once");
            var clock = Stopwatch.StartNew();
            await using var push = replica
                ? await PushUnderChaos.StartAsync(context with { Factory = factory }, settings.SubscribersPerBinding, settings.ConnectTimeout + ChaosSettings.HangMargin, clock, cancellationToken)
                : null;
            clock.Restart(); // The load's own time: the subscribers' set-up does not count towards --kill-after-seconds.
            var killedAt = double.NaN;
            var killSeconds = double.NaN;
            double? restartSeconds = null;
            var addressesBefore = host?.Endpoints;
            using var stopChaos = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            var chaos = Task.Run(async () =>
            {
                await Task.Delay(settings.KillAfter, stopChaos.Token);
                // A replica's kill is timed from the command's start (podman kill takes most of a
                // second): what fails, and what succeeds elsewhere, while it runs counts as after it.
                var started = clock.Elapsed.TotalSeconds;
                if (replica)
                {
                    MarkKilled(bindings, started);
                    await KillCommand.RunAsync(settings.KillCommand!, stopChaos.Token);
                    killSeconds = clock.Elapsed.TotalSeconds - started;
                    killedAt = started;
                }
                else
                {
                    await host!.KillAsync();
                    killedAt = clock.Elapsed.TotalSeconds;
                    MarkKilled(bindings, killedAt);
                }

                context.Console.MarkupLineInterpolated(replica
                    ? (FormattableString)$"    {killedAt:0.00} s: replica killed (SIGKILL; the command took {killSeconds:0.00} s)"
                    : $"    {killedAt:0.00} s: host killed (SIGKILL)");
                if (!replica)
                {
                    await host!.RestartAsync();
                    restartSeconds = clock.Elapsed.TotalSeconds - killedAt;
                    context.Console.MarkupLineInterpolated($"    {clock.Elapsed.TotalSeconds:0.00} s: host serving again after {restartSeconds:0.00} s");
                }
            }, stopChaos.Token);

            NodeStats stats;
            try
            {
                (stats, _) = await NBomberSession.RunAsync(
                    "all",
                    replica ? "chaos-kill-replica" : "chaos-kill-host",
                    [.. bindings.Zip(pools, (binding, pool) => new SessionScenario(
                        binding.Binding,
                        () => binding.CallAsync(pool, clock),
                        WriteLedger.RecordSize,
                        [NBomber.CSharp.Simulation.KeepConstant(settings.Users, settings.Duration)]))],
                    Path.Combine(context.Directory, "chaos"));
                await chaos;
            }
            finally
            {
                // A session that failed must not leave the kill to happen after the run: stop it and wait for it.
                await stopChaos.CancelAsync();
                await Task.WhenAny(chaos);
            }

            await ConfirmRecoveryAsync(bindings, pools, clock, settings, cancellationToken);
            var pushResult = push is null ? null : await push.FinishAsync(killedAt);

            var sameAddresses = replica || (addressesBefore!.Count == host!.Endpoints.Count && addressesBefore.All(e => host.Endpoints.GetValueOrDefault(e.Key) == e.Value));
            var results = bindings.Select(binding =>
            {
                var scenario = stats.ScenarioStats.Single(s => s.ScenarioName == binding.Binding);
                var writes = binding.Ledger.Verify();
                var recovery = binding.FirstSuccessAfterKill - killedAt;
                var failuresEnded = binding.LastFailure - killedAt;
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
                    binding.LongestCallMs, double.IsNaN(recovery) ? null : recovery, failuresEnded >= 0 ? failuresEnded : null, writes, problems);
            }).ToList();
            foreach (var result in results)
            {
                context.Console.MarkupLineInterpolated(
                    $"    {result.Binding}: {result.Ok:#,0} ok, {result.Failed:#,0} failed, serving again {(result.RecoverySeconds is { } r ? $"{r:0.00} s" : "never")} after the kill; writes acknowledged {result.Writes.Acknowledged:#,0}, in the file {result.Writes.Verified:#,0}, lost {result.Writes.Lost:#,0}");
            }

            return new ChaosResult(settings.Target, killedAt, replica ? killSeconds : null, restartSeconds, sameAddresses, results, pushResult);
        }
        finally
        {
            foreach (var pool in pools)
            {
                await pool.DisposeAsync();
            }
        }
    }

    private static void MarkKilled(IEnumerable<BindingUnderChaos> bindings, double killedAt)
    {
        foreach (var binding in bindings)
        {
            binding.KilledAt = killedAt;
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
}
