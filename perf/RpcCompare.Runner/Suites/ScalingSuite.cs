using RpcCompare.Bindings;
using RpcCompare.Contracts;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Suites;

/// <summary>
/// Where each binding stops scaling on this machine: Ping from 1, 4, 16 and 64 concurrent clients,
/// each on its own connection; for gRPC and fast-uds also every client's calls multiplexed on one
/// channel or connection.
/// </summary>
internal sealed class ScalingSuite : ISuite
{
    public const string MultiplexedSuffix = "/one-channel";

    /// <summary>fast-uds with every client's calls on one multiplexed connection (one client factory for all).</summary>
    public const string OneConnectionSuffix = "/one-connection";

    public static readonly int[] ClientCounts = [1, 4, 16, 64];

    public string Name => "scaling";

    public string Description => "Ping from 1, 4, 16 and 64 concurrent clients, each on its own connection (gRPC and fast-uds also multiplexed on one channel or connection): calls/s and p99 per step.";

    /// <summary>fast-uds's Task calls on the caller's thread, a pooled connection each: what multiplexing them changed.</summary>
    public IReadOnlyList<VariantUse> Variants { get; } = [new(BindingVariant.FastCallerThread, BindingVariant.FastBindings)];

    public IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets)
    {
        // A client-side variant keeps its own factory (its knob); its connections are per call already.
        var columns = targets.Select(t => t with { ConnectionPerClient = t.ClientFactory is null }).ToList();
        columns.AddRange(targets
            .Where(t => t.Binding is BindingNames.GrpcTcp or BindingNames.GrpcUds && t.Variant is null)
            .Select(t => t with
            {
                Label = t.Label + MultiplexedSuffix,
                Configuration = BindingConfigurations.Sentence(t.Configuration) + " Scaling: every client's calls multiplexed as HTTP/2 streams on one GrpcChannel (one connection until 100 streams are in flight).",
            }));
        columns.AddRange(targets
            .Where(t => t.Binding is BindingNames.FastUds && t.Variant is null)
            .Select(t => t with
            {
                Label = t.Label + OneConnectionSuffix,
                Configuration = BindingConfigurations.Sentence(t.Configuration) + " Scaling: every client's calls multiplexed by call id on one connection (one client factory for all).",
            }));
        foreach (var clients in ClientCounts)
        {
            foreach (var target in columns)
            {
                yield return new(Name, "Ping", target, clients, 0, static s =>
                {
                    var files = s.Get<IFileService>();
                    var request = new PingRequest();
                    return () => files.PingAsync(request);
                }, clients);
            }
        }
    }
}
