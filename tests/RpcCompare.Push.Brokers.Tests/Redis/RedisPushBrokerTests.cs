using Microsoft.Extensions.Logging.Abstractions;
using RpcCompare.Contracts.Push;
using RpcCompare.Push.Redis;
using RpcCompare.Testing;
using StackExchange.Redis;

namespace RpcCompare.Push.Brokers.Tests.Redis;

public sealed class RedisPushBrokerTests(RedisServerFixture fixture) : PushBrokerTests(fixture.Server), IClassFixture<RedisServerFixture>
{
    protected override string DescriptionStart => "redis 127.0.0.1:";

    protected override IPushBroker NewBroker(int port, string prefix) => NewBroker($"127.0.0.1:{port}", prefix);

    protected override IPushBroker NewUnreachableBroker(int port, string prefix) => NewBroker($"127.0.0.1:{port},connectTimeout=300", prefix);

    protected override async Task<LoopbackServer> StartServerAsync() => await RedisServer.StartAsync();

    protected override async Task AppendWithoutAnnouncingAsync(string prefix, Notification notification)
    {
        await using var redis = await ConnectionMultiplexer.ConnectAsync(Configuration);
        await redis.GetDatabase().StreamAddAsync($"{prefix}:topic:{notification.Topic}", "n", NotificationCodec.Encode(notification), "0-*");
    }

    protected override async Task InterruptFeedsAsync()
    {
        await using var redis = await ConnectionMultiplexer.ConnectAsync(Configuration + ",allowAdmin=true");
        await redis.GetDatabase().ExecuteAsync("CLIENT", "KILL", "TYPE", "pubsub");
    }

    protected override async Task PublishStrangersOnTheFeedAsync(string prefix)
    {
        await using var redis = await ConnectionMultiplexer.ConnectAsync(Configuration);
        var channel = RedisChannel.Literal(prefix + ":feed");
        foreach (var garbage in new RedisValue[] { "hello", "0 x", "-1 x", "7 \u00ff\u00ff\u00ff", "12" })
        {
            await redis.GetSubscriber().PublishAsync(channel, garbage);
        }
    }

    private static RedisPushBroker NewBroker(string configuration, string prefix) =>
        new(Microsoft.Extensions.Options.Options.Create(new RedisPushOptions { Configuration = configuration, KeyPrefix = prefix + ":" }), NullLogger<RedisPushBroker>.Instance);

    private string Configuration => ((RedisServer)Server).Configuration;
}
