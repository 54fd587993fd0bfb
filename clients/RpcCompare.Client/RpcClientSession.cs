namespace RpcCompare.Client;

/// <summary>
/// The proxies one caller uses over one binding: each contract's proxy is created on first use
/// and all are released together. One session is one connection per contract, so concurrent
/// callers each take their own session.
/// </summary>
public sealed class RpcClientSession : IAsyncDisposable
{
    private readonly RpcClientFactory _factory;
    private readonly Dictionary<Type, object> _clients = [];

    public RpcClientSession(RpcClientFactory factory, string binding, string address)
    {
        ArgumentNullException.ThrowIfNull(factory);
        _factory = factory;
        Binding = binding;
        Address = address;
    }

    public string Binding { get; }

    public string Address { get; }

    public T Get<T>()
        where T : class
    {
        if (!_clients.TryGetValue(typeof(T), out var client))
        {
            client = _factory.Create<T>(Binding, Address);
            _clients[typeof(T)] = client;
        }

        return (T)client;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var client in _clients.Values)
        {
            await RpcClientFactory.ReleaseAsync(client);
        }

        _clients.Clear();
    }
}
