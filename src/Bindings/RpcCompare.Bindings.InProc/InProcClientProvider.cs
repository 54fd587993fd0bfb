using System.Collections.Concurrent;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.InProc;

/// <summary>
/// Returns the implementation itself: the floor against which every binding's overhead is
/// measured. Either serves from a given container (any registered contract), or, when built
/// without one, treats the address as a data root and builds RpcCompare's own service on it.
/// </summary>
public sealed class InProcClientProvider : IBindingClientProvider
{
    private static readonly Type[] s_ownContracts = [typeof(IFileService), typeof(ICallShapeService), typeof(IPayloadService), typeof(IFileTransferService)];
    private readonly IServiceProvider? _services;
    private readonly ConcurrentDictionary<string, Lazy<ServiceProvider>> _byDataRoot = new(StringComparer.Ordinal);

    /// <summary>Resolves contracts from <paramref name="services"/>; the address is ignored.</summary>
    public InProcClientProvider(IServiceProvider services)
    {
        _services = services;
    }

    /// <summary>Treats the address as an existing data root directory and serves RpcCompare's contracts on it.</summary>
    public InProcClientProvider()
    {
    }

    public string Name => BindingNames.InProc;

    public IReadOnlyList<CarryRefusal> Check(Type contract)
    {
        ArgumentNullException.ThrowIfNull(contract);
        if (_services is null)
        {
            return s_ownContracts.Contains(contract)
                ? []
                : [CarryRefusal.OfContract(Name, contract, "without a container (RpcClientFactory.CreateDefault(inProcServices: ...)) inproc serves only RpcCompare's own contracts")];
        }

        return _services.GetServices<RpcServiceDescriptor>().Any(d => d.Contract == contract)
            ? CarryRules.Everything.Check(Name, contract)
            : [CarryRefusal.OfContract(Name, contract, "no implementation of it is registered (AddRpcService) in the container inproc was given")];
    }

    public TContract Create<TContract>(string address)
        where TContract : class
    {
        var services = _services ?? ForDataRoot(address);
        return services.GetService<TContract>()
            ?? throw new NotSupportedException($"No in-process implementation of {typeof(TContract).Name} is registered.");
    }

    private ServiceProvider ForDataRoot(string dataRoot)
    {
        ArgumentException.ThrowIfNullOrEmpty(dataRoot);
        if (!Directory.Exists(dataRoot))
        {
            throw new DirectoryNotFoundException($"The inproc binding's address is a data root directory; '{dataRoot}' does not exist.");
        }

        // One container per root, so every client of a root shares one service instance as a host's clients do.
        return _byDataRoot.GetOrAdd(dataRoot, static root => new Lazy<ServiceProvider>(() =>
            new ServiceCollection()
                .AddRpcCompareServices(configure: options =>
                {
                    options.Path = root;
                    options.Seed = false;
                })
                .BuildServiceProvider())).Value;
    }
}
