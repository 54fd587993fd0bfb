using RpcCompare.Testing;

namespace RpcCompare.Push.Brokers.Tests;

/// <summary>One broker server for a test class; each test keeps to a prefix of its own (<see cref="Replicas"/>).</summary>
public abstract class ServerFixture : IAsyncLifetime
{
    private LoopbackServer? _server;

    public LoopbackServer Server => _server ?? throw new InvalidOperationException("Not started.");

    public async Task InitializeAsync() => _server = await StartAsync();

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }

    protected abstract Task<LoopbackServer> StartAsync();
}
