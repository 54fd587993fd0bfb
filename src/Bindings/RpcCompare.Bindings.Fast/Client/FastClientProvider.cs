using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Fast.Push;
using RpcCompare.Bindings.Push;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// Creates fast-uds clients; the address is the server's socket path. Proxies of one address share
/// its connections; a push client has a connection of its own.
/// </summary>
public sealed class FastClientProvider : IBindingClientProvider, IPushClientProvider
{
    private readonly FastClientOptions _options;

    public FastClientProvider(FastClientOptions? options = null)
    {
        _options = options ?? new FastClientOptions();
        FastSpin.ThrowIfInvalid(_options.SpinWait, $"{nameof(FastClientOptions)}.{nameof(FastClientOptions.SpinWait)}");
        if (_options.CallTimeout <= TimeSpan.Zero && _options.CallTimeout != Timeout.InfiniteTimeSpan)
        {
            throw new InvalidOperationException($"{nameof(FastClientOptions)}.{nameof(FastClientOptions.CallTimeout)} must be positive or Timeout.InfiniteTimeSpan; got {_options.CallTimeout}.");
        }
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

        ThrowUnlessSocketPath(address);
        return FastContractProxy.Create<TContract>(FastConnectionPool.For(address, _options));
    }

    /// <summary>"frames": Notification frames between the replies on the subscriber's connection, each publication framed once for all.</summary>
    public IReadOnlyList<string> PushVariants { get; } = ["frames"];

    public IPushClient CreatePushClient(string address, string? variant = null)
    {
        ThrowUnlessSocketPath(address);
        PushVariant.ThrowUnlessOffered(variant, PushVariants, Name);
        return new FastPushClient(address, _options);
    }

    private static void ThrowUnlessSocketPath(string address)
    {
        if (string.IsNullOrEmpty(address) || !Path.IsPathRooted(address))
        {
            throw new ArgumentException($"A fast-uds address is an absolute socket path; got '{address}'.", nameof(address));
        }
    }
}
