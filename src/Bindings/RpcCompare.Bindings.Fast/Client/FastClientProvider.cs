using System.Collections.Concurrent;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Fast.Generated;
using RpcCompare.Bindings.Fast.Push;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Bindings.Push;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// Creates clients of one fast binding: fast-uds, whose address is the server's socket path, or
/// fast-tcp, whose address is tcp://host:port (<see cref="FastEndpoint"/>), in TLS when the options
/// carry <see cref="FastClientOptions.Tls"/>. Proxies of one address from
/// one provider share its connections (<see cref="FastConnectionPool"/>), which the provider closes
/// when disposed; a push client has a connection of its own.
/// </summary>
public sealed class FastClientProvider : IBindingClientProvider, IPushClientProvider, IDisposable
{
    private readonly FastClientOptions _options;
    private readonly ConcurrentDictionary<string, FastConnectionPool> _pools = new();

    /// <summary>A fast-uds client provider.</summary>
    public FastClientProvider(FastClientOptions? options = null)
        : this(BindingNames.FastUds, options)
    {
    }

    /// <param name="binding"><see cref="BindingNames.FastUds"/> or <see cref="BindingNames.FastTcp"/>.</param>
    /// <param name="options">The clients' settings; a copy is kept.</param>
    public FastClientProvider(string binding, FastClientOptions? options)
    {
        if (binding is not (BindingNames.FastUds or BindingNames.FastTcp))
        {
            throw new ArgumentException($"'{binding}' is not a fast binding ({BindingNames.FastTcp}, {BindingNames.FastUds}).", nameof(binding));
        }

        Name = binding;
        // A copy: changing the caller's options later changes nothing for this provider's connections.
        _options = (options ?? new FastClientOptions()).Copy();
        FastSpin.ThrowIfInvalid(_options.SpinWait, $"{nameof(FastClientOptions)}.{nameof(FastClientOptions.SpinWait)}");
        if (!Enum.IsDefined(_options.TaskCalls))
        {
            throw new InvalidOperationException($"{nameof(FastClientOptions)}.{nameof(FastClientOptions.TaskCalls)} is not one of {string.Join(", ", Enum.GetNames<FastTaskCalls>())}; got {(int)_options.TaskCalls}.");
        }

        if (_options.CallTimeout <= TimeSpan.Zero && _options.CallTimeout != Timeout.InfiniteTimeSpan)
        {
            throw new InvalidOperationException($"{nameof(FastClientOptions)}.{nameof(FastClientOptions.CallTimeout)} must be positive or Timeout.InfiniteTimeSpan; got {_options.CallTimeout}.");
        }
    }

    public string Name { get; }

    public IReadOnlyList<CarryRefusal> Check(Type contract) => FastCarryRules.Instance.Check(Name, contract);

    public TContract Create<TContract>(string address)
        where TContract : class
    {
        if (Check(typeof(TContract)) is [var refusal, ..])
        {
            throw new NotSupportedException(refusal.ToString());
        }

        var endpoint = Parse(address);
        var pool = _pools.GetOrAdd(address, static (_, state) => new FastConnectionPool(state.endpoint, state.options), (endpoint, options: _options));
        if (_options.GeneratedCode && GeneratedContracts.Find(typeof(TContract)).Contract is { } generated)
        {
            try
            {
                return (TContract)generated.CreateClient(pool);
            }
            catch (TypeLoadException)
            {
                // The contract gained a method since its code was generated (the proxy does not implement it): the
                // reflection proxy serves every method the contract has now, with the same bytes.
            }
        }

        return FastContractProxy.Create<TContract>(pool);
    }

    /// <summary>"frames": Notification frames between the replies on the subscriber's connection, each publication framed once for all.</summary>
    public IReadOnlyList<string> PushVariants { get; } = ["frames"];

    public IPushClient CreatePushClient(string address, string? variant = null)
    {
        var endpoint = Parse(address);
        PushVariant.ThrowUnlessOffered(variant, PushVariants, Name);
        return new FastPushClient(endpoint, _options);
    }

    /// <summary>Closes the connections its proxies shared; a proxy called afterwards throws <see cref="ObjectDisposedException"/>.</summary>
    public void Dispose()
    {
        foreach (var pool in _pools.Values)
        {
            pool.Dispose();
        }
    }

    private FastEndpoint Parse(string address) => FastEndpoint.Parse(Name, address, _options.Tls);
}
