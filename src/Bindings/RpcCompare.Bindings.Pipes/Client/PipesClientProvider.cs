using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Pipes.Push;
using RpcCompare.Bindings.Push;
using RpcCompare.Bindings.Pipes.Server;

namespace RpcCompare.Bindings.Pipes.Client;

/// <summary>Creates raw pipe clients; the address is the server's socket path.</summary>
public sealed class PipesClientProvider : IBindingClientProvider, IPushClientProvider
{
    private readonly PipesClientOptions _options;

    public PipesClientProvider(PipesClientOptions? options = null)
    {
        _options = options ?? new PipesClientOptions();
    }

    public string Name => BindingNames.Pipes;

    public IReadOnlyList<CarryRefusal> Check(Type contract) => PipeDispatcher.Carries(contract)
        ? []
        : [CarryRefusal.OfContract(Name, contract, "the pipes binding is the hand-written baseline for RpcCompare's own contracts")];

    public TContract Create<TContract>(string address)
        where TContract : class
    {
        if (Check(typeof(TContract)) is [var refusal, ..])
        {
            throw new NotSupportedException(refusal.ToString());
        }

        ArgumentException.ThrowIfNullOrEmpty(address);
        return (TContract)(object)new PipeRpcClient(address, _options);
    }

    /// <summary>A push client on a pipe connection of its own (connected on first use).</summary>
    public IReadOnlyList<string> PushVariants { get; } = ["frames"];

    public IPushClient CreatePushClient(string address, string? variant = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(address);
        PushVariant.ThrowUnlessOffered(variant, PushVariants, Name);
        return new PipePushClient(address, _options);
    }
}
