using RpcCompare.Bindings;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Grpc.Client;
using RpcCompare.Bindings.Grpc.Tcp;
using RpcCompare.Bindings.Grpc.Uds;
using RpcCompare.Bindings.InProc;
using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Bindings.Push;
using RpcCompare.Bindings.Wcf.Client;
using RpcCompare.Bindings.Wcf.Http;
using RpcCompare.Bindings.Wcf.NetTcp;
using RpcCompare.Bindings.Wcf.Uds;

namespace RpcCompare.Client;

/// <summary>
/// Returns a proxy for a contract over the named binding. Every binding's client side plugs in
/// as an <see cref="IBindingClientProvider"/>; callers never see which framework is underneath.
/// </summary>
public sealed class RpcClientFactory : IDisposable
{
    private readonly Dictionary<string, IBindingClientProvider> _providers;

    public RpcClientFactory(IEnumerable<IBindingClientProvider> providers)
    {
        ArgumentNullException.ThrowIfNull(providers);
        _providers = providers.ToDictionary(p => p.Name, StringComparer.Ordinal);
    }

    /// <summary>Every binding this build offers a client for, in report order.</summary>
    public IReadOnlyList<string> Bindings => [.. BindingNames.All.Where(_providers.ContainsKey)];

    /// <summary>Bindings this build can publish and subscribe over, in report order.</summary>
    public IReadOnlyList<string> PushBindings => [.. Bindings.Where(b => _providers[b] is IPushClientProvider)];

    /// <summary>The ways <paramref name="binding"/> can deliver notifications, its default first.</summary>
    public IReadOnlyList<string> PushVariants(string binding)
    {
        BindingNames.ThrowUnlessOffered(binding, _providers.Keys);
        return _providers[binding] is IPushClientProvider push ? push.PushVariants : [];
    }

    /// <summary>A factory with the client side of every binding in this build, each configured from <paramref name="options"/>.</summary>
    /// <param name="options">Message size, connect timeout and TLS trust for every binding.</param>
    /// <param name="inProcServices">
    /// The container the inproc binding takes implementations from: a host's, or your own
    /// process's with its AddRpcService registrations, so any registered contract can be called
    /// in-process through the same factory (the address is then ignored). Without it, inproc
    /// serves RpcCompare's own contracts on the data root directory given as the address.
    /// </param>
    public static RpcClientFactory CreateDefault(RpcClientOptions? options = null, IServiceProvider? inProcServices = null)
    {
        options ??= new RpcClientOptions();
        var wcf = new WcfClientOptions { MaxMessageSize = options.MaxMessageSize, ConnectTimeout = options.ConnectTimeout, Tls = options.Tls };
        var grpc = new GrpcClientOptions { MaxMessageSize = options.MaxMessageSize, ConnectTimeout = options.ConnectTimeout, Tls = options.Tls };
        return new(
        [
            new WcfNetTcpClientProvider(wcf),
            new WcfUdsClientProvider(wcf),
            new WcfHttpClientProvider(wcf),
            new GrpcTcpClientProvider(grpc),
            new GrpcUdsClientProvider(grpc),
            new FastClientProvider(BindingNames.FastTcp, new FastClientOptions { MaxMessageSize = options.MaxMessageSize, Tls = options.Tls }),
            new FastClientProvider(new FastClientOptions { MaxMessageSize = options.MaxMessageSize }),
            new PipesClientProvider(new PipesClientOptions { MaxMessageSize = options.MaxMessageSize, ConnectTimeout = options.ConnectTimeout }),
            inProcServices is null ? new InProcClientProvider() : new InProcClientProvider(inProcServices),
        ]);
    }

    /// <summary>
    /// Returns <typeparamref name="TContract"/> over <paramref name="binding"/> at <paramref name="address"/>.
    /// Dispose the result with <see cref="ReleaseAsync"/> when done.
    /// </summary>
    /// <exception cref="NotSupportedException">The binding is not in this build, or cannot carry the contract.</exception>
    /// <exception cref="ArgumentException">The binding name is unknown.</exception>
    public TContract Create<TContract>(string binding, string address)
        where TContract : class
    {
        if (Check(binding, typeof(TContract)) is { Count: > 0 } refusals)
        {
            throw new NotSupportedException(new ContractNotCarriedException(refusals).Message);
        }

        return _providers[binding].Create<TContract>(address);
    }

    /// <summary>Why <paramref name="binding"/> cannot carry <paramref name="contract"/> (each shape it refuses); empty when it can.</summary>
    /// <exception cref="NotSupportedException">The binding is not in this build.</exception>
    /// <exception cref="ArgumentException">The binding name is unknown.</exception>
    public IReadOnlyList<CarryRefusal> Check(string binding, Type contract)
    {
        BindingNames.ThrowUnlessOffered(binding, _providers.Keys);
        return _providers[binding].Check(contract);
    }

    /// <summary>Asks the server's standard health service over <paramref name="binding"/>; see <see cref="IBindingHealthProbe"/>.</summary>
    /// <exception cref="NotSupportedException">The binding has no standard health service.</exception>
    public Task<string> CheckHealthAsync(string binding, string address, string service = "", CancellationToken cancellationToken = default)
    {
        BindingNames.ThrowUnlessOffered(binding, _providers.Keys);
        return _providers[binding] is IBindingHealthProbe probe
            ? probe.CheckHealthAsync(address, service, cancellationToken)
            : throw new NotSupportedException($"Binding '{binding}' has no standard health service; {string.Join(" and ", _providers.Values.OfType<IBindingHealthProbe>().Select(p => ((IBindingClientProvider)p).Name))} have grpc.health.v1.");
    }

    /// <summary>
    /// A publish/subscribe client over <paramref name="binding"/> at <paramref name="address"/>, on a
    /// connection of its own; see <see cref="IPushClientProvider"/>. Dispose it when done.
    /// </summary>
    /// <exception cref="NotSupportedException">The binding cannot push.</exception>
    /// <param name="binding">One of <see cref="PushBindings"/>.</param>
    /// <param name="address">The binding's address, as for contract proxies.</param>
    /// <param name="variant">One of the binding's <see cref="PushVariants"/>; null for its default.</param>
    public IPushClient CreatePushClient(string binding, string address, string? variant = null)
    {
        BindingNames.ThrowUnlessOffered(binding, _providers.Keys);
        return _providers[binding] is IPushClientProvider push
            ? push.CreatePushClient(address, variant)
            : throw new NotSupportedException($"Binding '{binding}' cannot push; bindings that can: {string.Join(", ", PushBindings)}.");
    }

    /// <summary>Closes what the providers keep open for reuse (WCF channel factories, gRPC channels).</summary>
    public void Dispose()
    {
        foreach (var provider in _providers.Values.OfType<IDisposable>())
        {
            provider.Dispose();
        }
    }

    /// <summary>Closes a proxy's connection, if it holds one.</summary>
    public static ValueTask ReleaseAsync(object client) => client is IAsyncDisposable disposable ? disposable.DisposeAsync() : default;
}
