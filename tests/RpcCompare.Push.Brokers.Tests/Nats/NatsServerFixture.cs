using RpcCompare.Testing;

namespace RpcCompare.Push.Brokers.Tests.Nats;

public sealed class NatsServerFixture : ServerFixture
{
    protected override async Task<LoopbackServer> StartAsync() => await NatsServer.StartAsync();
}
