using RpcCompare.Load.Scenarios;

namespace RpcCompare.Load;

/// <param name="Bindings">Bindings to load, or null for every network binding the host serves.</param>
/// <param name="Operations">Operations, in order.</param>
/// <param name="Models">Load models, in order.</param>
/// <param name="Settings">Users, rate, warm-up and duration.</param>
/// <param name="Quick">Whether --quick chose the settings.</param>
/// <param name="HostEndpointsFile">An already-running host's endpoints file (--host), or null to start one.</param>
/// <param name="OutputRoot">Reports go to OutputRoot/&lt;UTC&gt;/load/.</param>
internal sealed record LoadOptions(
    IReadOnlyList<string>? Bindings,
    IReadOnlyList<LoadOperation> Operations,
    IReadOnlyList<LoadModel> Models,
    LoadSettings Settings,
    bool Quick,
    string? HostEndpointsFile,
    string OutputRoot);
