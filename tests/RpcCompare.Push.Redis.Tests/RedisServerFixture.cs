using RpcCompare.Testing;

namespace RpcCompare.Push.Redis.Tests;

/// <summary>One redis-server for a test class; each test keeps to keys of its own (<see cref="Replicas"/>).</summary>
public sealed class RedisServerFixture : IAsyncLifetime
{
    private RedisServer? _server;

    public RedisServer Server => _server ?? throw new InvalidOperationException("Not started.");

    public async Task InitializeAsync() => _server = await RedisServer.StartAsync();

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }
}
