using RpcCompare.Bindings;
using RpcCompare.Bindings.Grpc.Push;
using RpcCompare.Client;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;
using RpcCompare.Runner.Suites;

namespace RpcCompare.Runner.Push;

/// <summary>
/// Publish/subscribe at scale, the 2009 polling-duplex measurement on today's stack: broadcast to
/// as many subscribers as each push binding carries, and small-room collaboration. It measures
/// delivery rather than call rates, so it has no call workloads: <see cref="RunAsync"/> runs it.
/// </summary>
internal sealed class PushSuite : ISuite
{
    public const string SuiteName = "push";

    public string Name => SuiteName;

    public string Description => "Broadcast to thousands of subscribers in separate processes (largest M whose every burst completes in time) and chat-room collaboration latency, per push binding and variant.";

    /// <summary>
    /// gRPC's multiplexed subscriptions again on a host whose connections carry more than
    /// Kestrel's 100 streams: on the product's host each agent's one connection stops at 100.
    /// </summary>
    public IReadOnlyList<VariantUse> Variants { get; } = [new(BindingVariant.GrpcStreamsRaised, BindingVariant.GrpcBindings)];

    public IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets) => [];

    /// <summary>
    /// Every push variant of every measured binding that can push, in report order, each binding
    /// followed by its knobs' columns (<see cref="Variants"/>) for the push variants they concern.
    /// </summary>
    public static IReadOnlyList<PushTarget> Targets(RpcClientFactory factory, IReadOnlyList<BindingTarget> targets)
    {
        var order = BindingNames.All.ToList();
        return
        [
            .. targets.Where(t => t.Binding != BindingNames.InProc && factory.PushBindings.Contains(t.Binding))
                .OrderBy(t => order.IndexOf(t.Binding)).ThenBy(t => t.Variant is not null)
                .SelectMany(t => PushVariantsOf(factory, t).Select(v => new PushTarget($"{t.Label}/{v}", t.Binding, v, t.Address))),
        ];
    }

    // A knob's column measures only the push variants it changes.
    private static IEnumerable<string> PushVariantsOf(RpcClientFactory factory, BindingTarget target) => target.Variant switch
    {
        null => factory.PushVariants(target.Binding),
        var v when v == BindingVariant.GrpcStreamsRaised.Suffix => [GrpcPushVariants.Multiplexed],
        _ => [],
    };

    /// <summary>Measures every target: the broadcast search, then each collaboration row.</summary>
    /// <param name="factory">The runner's clients (publishers).</param>
    /// <param name="targets">What to measure.</param>
    /// <param name="settings">Subscriber counts, bursts, rooms.</param>
    /// <param name="report">Progress: the step and its share done.</param>
    /// <param name="completed">Called with each target's label once it is measured.</param>
    /// <param name="serverThumbprint">A TLS host's certificate, which the subscriber agents pin; null for plaintext.</param>
    public static async Task<PushResults> RunAsync(RpcClientFactory factory, IReadOnlyList<PushTarget> targets, PushSettings settings, Action<string?, double> report, Action<string> completed,
        string? serverThumbprint = null)
    {
        await using var agents = new AgentPool(settings.SubscribersPerAgent, serverThumbprint);
        var broadcast = new List<BroadcastResult>();
        var collaboration = new List<CollaborationResult>();
        var search = new BroadcastSearch(settings, agents, line => report(line, 0));
        var rows = new CollaborationRun(settings, agents);
        var broadcastShare = settings.PlannedSecondsPerTarget - settings.Rows.Sum(r => (settings.Iterations + 1) * r.IntervalSeconds);
        foreach (var target in targets)
        {
            var searched = await search.RunAsync(target, () => factory.CreatePushClient(target.Binding, target.Address, target.Variant));
            broadcast.Add(searched);
            report(null, broadcastShare);
            completed($"push · broadcast · {target.Label}: {BroadcastText(searched)}");

            foreach (var row in settings.Rows)
            {
                report($"push · collaboration {row.Label} · {target.Label}", 0);
                var result = await rows.RunAsync(target, row);
                collaboration.Add(result);
                report(null, (settings.Iterations + 1) * row.IntervalSeconds);
                completed($"push · collaboration {row.Label} · {target.Label}: " +
                    (result.Latency is { } l ? $"mean {l.Mean:0.0} ms, p99 {l.P99:0.0} ms" : "no receipts") + (result.Failure is { } f ? $" ({f})" : ""));
            }
        }

        return new PushResults(settings, broadcast, collaboration);
    }

    /// <summary>"≥ 10,000", "4,000", or "none held (…)": the broadcast headline in words.</summary>
    public static string BroadcastText(BroadcastResult result) => result switch
    {
        { MaxSubscribers: null } when result.Steps.Any(s => s.Confirmation) =>
            $"none held its confirmation run ({result.Steps.Last(s => s.Confirmation).Failure})",
        { MaxSubscribers: null } => $"none held ({(result.Steps.Count > 0 ? result.Steps[0].Failure : "no step ran")})",
        { ReachedCeiling: true } => $"≥ {result.MaxSubscribers:#,0} (the search's ceiling)",
        _ => $"{result.MaxSubscribers:#,0}",
    };
}
