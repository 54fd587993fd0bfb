using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Client;
using RpcCompare.Perf.Hosting;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Contracts;

/// <summary>
/// Serves a team's contracts for the contracts suite: a host of their own (<c>--services none
/// --contracts PATH</c>), apart from the built-in suites' host, because a host stops at start-up
/// when one of its bindings cannot carry one of its contracts, and a team's duplex contract must
/// not take gRPC away from the other suites. Inproc calls the implementations in this process.
/// </summary>
internal sealed class ContractsHost : IAsyncDisposable
{
    private readonly HostLauncher? _host;
    private readonly ServiceProvider _inProcServices;
    private readonly RpcClientFactory _inProcFactory;

    private ContractsHost(HostLauncher? host, ServiceProvider inProcServices, RpcClientFactory inProcFactory, IReadOnlyList<BindingTarget> targets)
    {
        _host = host;
        _inProcServices = inProcServices;
        _inProcFactory = inProcFactory;
        Targets = targets;
    }

    private const string InProcConfiguration = "direct call to the team's implementation, created in the runner process from a container of its own: no transport, no serialization";

    /// <summary>The suite's columns: each binding the host serves, at its address there, and inproc.</summary>
    public IReadOnlyList<BindingTarget> Targets { get; }

    /// <summary>The host process, for its exit report when a cell fails; null when only inproc is measured.</summary>
    public HostLauncher? Host => _host;

    /// <summary>
    /// Which bindings a host of the team's contracts can serve: those that carry every one of them
    /// (the client factory's check is the servers' own carry rules), and why each other one is left
    /// out: its refusals by contract.
    /// </summary>
    public static (IReadOnlyList<string> Served, IReadOnlyDictionary<string, ILookup<Type, CarryRefusal>> LeftOut) Plan(RpcClientFactory factory, IReadOnlyList<string> bindings, IReadOnlyList<Type> contracts)
    {
        var served = new List<string>();
        var leftOut = new Dictionary<string, ILookup<Type, CarryRefusal>>();
        foreach (var binding in bindings)
        {
            var refusals = contracts.SelectMany(c => factory.Check(binding, c), (contract, refusal) => (contract, refusal)).ToLookup(p => p.contract, p => p.refusal);
            if (refusals.Count == 0)
            {
                served.Add(binding);
            }
            else
            {
                leftOut[binding] = refusals;
            }
        }

        return (served, leftOut);
    }

    public static async Task<ContractsHost> StartAsync(ContractsSuite suite, IReadOnlyList<string> requested, CpuPlacement pin)
    {
        var assembly = suite.Source.Assembly;
        var inProcServices = new ServiceCollection().AddLogging().AddRpcServices(assembly).BuildServiceProvider();
        var factory = RunnerClients.CreateFactory(inProcServices: inProcServices);
        HostLauncher? host = null;
        try
        {
            // Every contract the host will serve, measured or not: one it cannot carry stops it at start-up.
            var (served, leftOut) = Plan(factory, requested, [.. assembly.Services.Select(s => s.Contract)]);
            suite.LeftOut = leftOut;
            if (served.Count == 0)
            {
                throw new InvalidOperationException($"Nothing to measure: none of the chosen bindings carries the contracts of {assembly.Name}: " +
                    string.Join("; ", leftOut.Values.SelectMany(byContract => byContract.SelectMany(r => r))));
            }

            if (served.Contains(BindingNames.InProc))
            {
                try
                {
                    // As the host does before it listens: a constructor inproc's container cannot satisfy is an error now, not mid-run.
                    assembly.CreateImplementations(inProcServices);
                }
                catch (InvalidOperationException exception)
                {
                    throw new InvalidOperationException($"inproc: {exception.Message} The runner's container has logging and options only: " +
                        "leave inproc out (--bindings) or give the class a constructor it can satisfy.", exception);
                }
            }

            var network = served.Where(b => b != BindingNames.InProc).ToList();
            host = network.Count == 0 ? null : await HostLauncher.StartAsync(network, pin, arguments: ["--services", "none", "--contracts", assembly.Path]);
            var endpoints = host?.Endpoints ?? new Dictionary<string, string>();
            var targets = served
                .Select(b => b == BindingNames.InProc
                    ? new BindingTarget(b, b, "the runner's process", InProcConfiguration, ClientFactory: factory)
                    : new BindingTarget(b, b, endpoints[b], BindingConfigurations.Describe(b), ClientFactory: factory))
                .ToList();
            return new ContractsHost(host, inProcServices, factory, targets);
        }
        catch
        {
            if (host is not null)
            {
                await host.DisposeAsync();
            }

            factory.Dispose();
            await inProcServices.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_host is not null)
        {
            await _host.DisposeAsync();
        }

        _inProcFactory.Dispose();
        await _inProcServices.DisposeAsync();
    }
}
