using RpcCompare.Testing;

namespace RpcCompare.Push.Brokers.Tests.Redis;

public sealed class RedisServerFixture : ServerFixture
{
    protected override async Task<LoopbackServer> StartAsync() => await RedisServer.StartAsync();
}
