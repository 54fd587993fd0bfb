using RpcCompare.Bindings;
using RpcCompare.Contracts;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Suites;

/// <summary>The original table: empty call, directory read, a small write into a large file, twice.</summary>
internal sealed class OpsSuite : ISuite
{
    public string Name => "ops";

    public string Description => "Ping, ReadDirectory (100 entries), WriteAt (100 B in the middle of 1 MiB), WriteAt twice: the WCF-versus-pipes table.";

    /// <summary>
    /// The gRPC bindings once more through protobuf-net.Grpc (the path the product's own replaced) and
    /// grpc-tcp through ServiceModel.Grpc (the peer library), the TCP bindings with TLS, and fast-uds
    /// through its reflection path instead of its generated code, and a binding of each family with the host's
    /// telemetry on: same-run ratios.
    /// </summary>
    public IReadOnlyList<VariantUse> Variants { get; } =
    [
        new(BindingVariant.GrpcProtobufNet, BindingVariant.GrpcBindings),
        new(BindingVariant.GrpcServiceModel, new HashSet<string> { BindingNames.GrpcTcp }),
        new(BindingVariant.Tls, BindingVariant.TcpBindings),
        new(BindingVariant.MutualTls, BindingVariant.TcpBindings),
        new(BindingVariant.FastReflection, BindingVariant.FastBindings),
        new(BindingVariant.Telemetry, BindingVariant.TelemetryBindings),
    ];

    public IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets)
    {
        foreach (var target in targets)
        {
            yield return new(Name, "Ping", target, null, 0, static s =>
            {
                var files = s.Get<IFileService>();
                var request = new PingRequest();
                return () => files.PingAsync(request);
            });
            yield return new(Name, "ReadDirectory", target, null, 0, static s =>
            {
                var files = s.Get<IFileService>();
                var request = new ReadDirectoryRequest { Path = "files" };
                return () => files.ReadDirectoryAsync(request);
            });
            yield return new(Name, "WriteAt", target, null, 100, static s =>
            {
                var files = s.Get<IFileService>();
                var request = new WriteAtRequest();
                return () => files.WriteAtAsync(request);
            });
            yield return new(Name, "WriteAt twice", target, null, 200, static s =>
            {
                var files = s.Get<IFileService>();
                var request = new WriteAtRequest { Repeat = 2 };
                return () => files.WriteAtAsync(request);
            });
        }
    }
}
