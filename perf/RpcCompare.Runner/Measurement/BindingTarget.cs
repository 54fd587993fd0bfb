using RpcCompare.Client;

namespace RpcCompare.Runner.Measurement;

/// <summary>
/// One column of the comparison: a binding at an address, under a label. A binding can appear
/// several times with different settings (e.g. "pipes" and "pipes/inline-io").
/// </summary>
/// <param name="Label">The column name in every report.</param>
/// <param name="Binding">The binding name the client factory takes.</param>
/// <param name="Address">Where the binding listens.</param>
/// <param name="Configuration">How it is configured, in words, for the report.</param>
/// <param name="ConnectionPerClient">
/// Give every client of a cell its own client factory, hence its own connection on every
/// binding (gRPC shares one channel per address and factory otherwise).
/// </param>
/// <param name="Variant">
/// The knob suffix when this column is a <see cref="Hosting.BindingVariant"/> of
/// <paramref name="Binding"/>; null for the binding as the product configures it.
/// </param>
/// <param name="ClientFactory">A client-side variant's own factory; null for the run's.</param>
internal sealed record BindingTarget(
    string Label,
    string Binding,
    string Address,
    string Configuration,
    bool ConnectionPerClient = false,
    string? Variant = null,
    RpcClientFactory? ClientFactory = null);
