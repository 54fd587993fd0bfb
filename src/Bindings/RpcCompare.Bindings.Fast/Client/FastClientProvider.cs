using RpcCompare.Bindings.Carrying;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>Creates fast-uds clients; the address is the server's socket path. Proxies of one address share its connections.</summary>
public sealed class FastClientProvider : IBindingClientProvider
{
    private readonly FastClientOptions _options;

    public FastClientProvider(FastClientOptions? options = null)
    {
        _options = options ?? new FastClientOptions();
        FastSpin.ThrowIfInvalid(_options.SpinWait, $"{nameof(FastClientOptions)}.{nameof(FastClientOptions.SpinWait)}");
    }

    public string Name => BindingNames.FastUds;

    public IReadOnlyList<CarryRefusal> Check(Type contract) => FastCarryRules.Instance.Check(Name, contract);

    public TContract Create<TContract>(string address)
        where TContract : class
    {
        if (Check(typeof(TContract)) is [var refusal, ..])
        {
            throw new NotSupportedException(refusal.ToString());
        }

        if (string.IsNullOrEmpty(address) || !Path.IsPathRooted(address))
        {
            throw new ArgumentException($"A fast-uds address is an absolute socket path; got '{address}'.", nameof(address));
        }

        return FastContractProxy.Create<TContract>(FastConnectionPool.For(address, _options));
    }
}
