using RpcCompare.Client;
using RpcCompare.Perf.Hosting;
using RpcCompare.Perf.Hosting.Security;
using Spectre.Console;

namespace RpcCompare.Load;

/// <summary>What every kind of load run works with: the host's endpoints, the bindings chosen, where reports go.</summary>
/// <param name="Options">The command line's choices.</param>
/// <param name="Console">Where progress goes.</param>
/// <param name="Factory">Makes a client of any binding.</param>
/// <param name="Bindings">The bindings to load, in order.</param>
/// <param name="Endpoints">Binding name to the host's address.</param>
/// <param name="Host">The host the load command started, or null for an already-running one (--host).</param>
/// <param name="Directory">This run's report folder (results/&lt;UTC&gt;/load).</param>
/// <param name="Security">How the host's TCP bindings are secured in this pass (--security).</param>
internal sealed record LoadContext(
    LoadOptions Options,
    IAnsiConsole Console,
    RpcClientFactory Factory,
    IReadOnlyList<string> Bindings,
    IReadOnlyDictionary<string, string> Endpoints,
    HostLauncher? Host,
    string Directory,
    BenchSecurity Security)
{
    /// <summary>How a binding is named in this pass's results and folders: "grpc-tcp", or "grpc-tcp/tls" in a secured pass.</summary>
    public string Label(string binding) => Security.Label(binding);
}
