using RpcCompare.Bindings.Carrying;

namespace RpcCompare.Bindings;

/// <summary>The client side of one binding: turns an address into a contract proxy.</summary>
public interface IBindingClientProvider
{
    string Name { get; }

    /// <summary>Why this binding cannot carry <paramref name="contract"/>; empty when it can (the server side refuses the same shapes).</summary>
    IReadOnlyList<CarryRefusal> Check(Type contract);

    /// <summary>
    /// Returns a proxy for <typeparamref name="TContract"/>. The proxy implements
    /// <see cref="IAsyncDisposable"/> when it holds a connection; the caller disposes it.
    /// </summary>
    TContract Create<TContract>(string address)
        where TContract : class;
}
