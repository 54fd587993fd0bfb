using RpcCompare.Load.Capacity;
using RpcCompare.Load.Chaos;
using RpcCompare.Load.Scenarios;
using RpcCompare.Load.Soak;
using RpcCompare.Perf.Hosting.Security;

namespace RpcCompare.Load;

/// <param name="Mode">Which kind of load run.</param>
/// <param name="Bindings">Bindings to load, or null for every network binding the host serves.</param>
/// <param name="Operations">Operations, in order.</param>
/// <param name="Models">Load models, in order.</param>
/// <param name="Settings">Users, rate, warm-up and duration.</param>
/// <param name="Quick">Whether --quick chose the settings.</param>
/// <param name="HostEndpointsFile">An already-running host's endpoints file (--host), or null to start one.</param>
/// <param name="OutputRoot">Reports go to OutputRoot/&lt;UTC&gt;/load/.</param>
/// <param name="Capacity">How --find-max searches.</param>
/// <param name="Soak">Duration and rate of --soak.</param>
/// <param name="Chaos">What --chaos kills, users, duration and kill time.</param>
/// <param name="Security">The security modes to load, one host each (--security); plaintext alone by default.</param>
internal sealed record LoadOptions(
    LoadMode Mode,
    IReadOnlyList<string>? Bindings,
    IReadOnlyList<LoadOperation> Operations,
    IReadOnlyList<LoadModel> Models,
    LoadSettings Settings,
    bool Quick,
    string? HostEndpointsFile,
    string OutputRoot,
    CapacitySettings Capacity,
    SoakSettings Soak,
    ChaosSettings Chaos,
    IReadOnlyList<BenchSecurity> Security);

/// <summary>What a load run does.</summary>
internal enum LoadMode
{
    /// <summary>Closed and open model scenarios at fixed users and rate (the default).</summary>
    Scenarios,

    /// <summary>--find-max: the highest rate each binding holds within the latency budget.</summary>
    FindMax,

    /// <summary>--soak: each binding held at a fixed rate for minutes, the host sampled every second.</summary>
    Soak,

    /// <summary>--chaos: the host (restarted) or a fleet's replica killed with SIGKILL under load; failures, recovery, acknowledged writes and (a replica) push checked.</summary>
    Chaos,
}
