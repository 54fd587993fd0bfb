using RpcCompare.Client;

namespace RpcCompare.Cli;

/// <summary>Creates each contract's proxy on first use and releases them all at the end.</summary>
internal sealed class ClientSet : IAsyncDisposable
{
    private readonly RpcClientFactory _factory;
    private readonly string _binding;
    private readonly string _address;
    private readonly Dictionary<Type, object> _clients = [];

    public ClientSet(RpcClientFactory factory, string binding, string address)
    {
        _factory = factory;
        _binding = binding;
        _address = address;
    }

    public T Get<T>()
        where T : class
    {
        if (!_clients.TryGetValue(typeof(T), out var client))
        {
            client = _factory.Create<T>(_binding, _address);
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
    }
}
