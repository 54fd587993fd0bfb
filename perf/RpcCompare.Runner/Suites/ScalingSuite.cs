using RpcCompare.Bindings;
using RpcCompare.Contracts;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Suites;

/// <summary>
/// Where each binding stops scaling on this machine: Ping from 1, 4, 16 and 64 concurrent clients,
/// each on its own connection; for gRPC also every client's calls multiplexed on one channel.
/// </summary>
internal sealed class ScalingSuite : ISuite
{
    public const string MultiplexedSuffix = "/one-channel";

    public static readonly int[] ClientCounts = [1, 4, 16, 64];

    public string Name => "scaling";

    public string Description => "Ping from 1, 4, 16 and 64 concurrent clients, each on its own connection (gRPC also multiplexed on one channel): calls/s and p99 per step.";

    public IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets)
    {
        var columns = targets.Select(t => t with { ConnectionPerClient = true }).ToList();
        columns.AddRange(targets
            .Where(t => t.Binding is BindingNames.GrpcTcp or BindingNames.GrpcUds)
            .Select(t => t with
            {
                Label = t.Label + MultiplexedSuffix,
                Configuration = BindingConfigurations.Sentence(t.Configuration) + " Scaling: every client's calls multiplexed as HTTP/2 streams on one GrpcChannel (one connection until 100 streams are in flight).",
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
