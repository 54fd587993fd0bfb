using RpcCompare.Bindings;
using RpcCompare.Contracts;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Suites;

/// <summary>The add-in isolation table: what a call costs as its signature grows.</summary>
internal sealed class ShapesSuite : ISuite
{
    public string Name => "shapes";

    public string Description => "The five call shapes void(), void(int), int(), int(int), void(struct): calls per second.";

    /// <summary>
    /// The gRPC bindings once more through protobuf-net.Grpc (the path the product's own replaced) and
    /// grpc-tcp through ServiceModel.Grpc (the peer library): same-run ratios.
    /// </summary>
    public IReadOnlyList<VariantUse> Variants { get; } =
    [
        new(BindingVariant.GrpcProtobufNet, BindingVariant.GrpcBindings),
        new(BindingVariant.GrpcServiceModel, new HashSet<string> { BindingNames.GrpcTcp }),
    ];

    public IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets)
    {
        foreach (var target in targets)
        {
            yield return new(Name, "void()", target, null, 0, static s =>
            {
                var shapes = s.Get<ICallShapeService>();
                return () => shapes.VoidCallAsync();
            });
            yield return new(Name, "void(int)", target, null, 4, static s =>
            {
                var shapes = s.Get<ICallShapeService>();
                var request = new IntMessage { Value = 7 };
                return () => shapes.TakeIntAsync(request);
            });
            yield return new(Name, "int()", target, null, 0, static s =>
            {
                var shapes = s.Get<ICallShapeService>();
                return () => shapes.ReturnIntAsync();
            });
            yield return new(Name, "int(int)", target, null, 4, static s =>
            {
                var shapes = s.Get<ICallShapeService>();
                var request = new IntMessage { Value = 7 };
                return () => shapes.IncrementAsync(request);
            });
            yield return new(Name, "void(struct)", target, null, 20, static s =>
            {
                var shapes = s.Get<ICallShapeService>();
                var request = new PointMessage { X = 1, Y = 2, Z = 3, Weight = 0.5 };
                return () => shapes.TakePointAsync(request);
            });
        }
    }
}
