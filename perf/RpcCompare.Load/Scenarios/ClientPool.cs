using System.Collections.Concurrent;
using RpcCompare.Client;

namespace RpcCompare.Load.Scenarios;

/// <summary>
/// Connected clients for one scenario, one per call in flight: a call rents a client, and returns
/// it when the call succeeded. The closed model needs as many clients as users; the open model as
/// many as calls overlap, so the pool grows on demand. A client whose call failed is closed rather
/// than reused (its connection may be broken).
/// </summary>
internal sealed class ClientPool : IAsyncDisposable
{
    private readonly RpcClientFactory _factory;
    private readonly string _binding;
    private readonly string _address;
    private readonly LoadOperation _operation;
    private readonly ConcurrentBag<Client> _idle = [];
    private readonly ConcurrentBag<Client> _all = [];

    public ClientPool(RpcClientFactory factory, string binding, string address, LoadOperation operation)
    {
        _factory = factory;
        _binding = binding;
        _address = address;
        _operation = operation;
    }

    /// <summary>Connected clients so far: the most calls that overlapped.</summary>
    public int Created => _all.Count;

    /// <summary>Makes one call on an idle client (or a new one); throws what the call threw.</summary>
    public async Task CallAsync()
    {
        if (!_idle.TryTake(out var client))
        {
            client = new Client(new RpcClientSession(_factory, _binding, _address), _operation);
            _all.Add(client);
        }

        try
        {
            await client.Call();
        }
        catch
        {
            await client.Session.DisposeAsync();
            throw;
        }

        _idle.Add(client);
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var client in _all)
        {
            await client.Session.DisposeAsync();
        }
    }

    private sealed class Client(RpcClientSession session, LoadOperation operation)
    {
        public RpcClientSession Session { get; } = session;

        public Func<Task> Call { get; } = operation.CreateCall(session);
    }
}
