using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests;

/// <summary>
/// Two real hosts on one broker (<c>--push-redis</c>, <c>--push-nats</c>), as replicas behind a balancer:
/// push crosses from one to the other.
/// </summary>
public sealed class HostPushAcrossReplicasTests
{
    [Theory]
    [InlineData("redis")]
    [InlineData("nats")]
    public async Task APublicationOnOneHost_ReachesASubscriberOfTheOther_InOrder_WhateverTheBindings(string broker)
    {
        var (server, brokerArguments) = await StartBrokerAsync(broker);
        await using var running = server;
        using var directory = new TemporaryDirectory();
        await using var first = HostProcess.Start(["--bindings", "pipes,fast-uds", .. brokerArguments,
            "--endpoints-file", directory.PathFor("first.json"), "--socket-dir", directory.PathFor("first")]);
        await using var second = HostProcess.Start(["--bindings", "pipes,fast-uds", .. brokerArguments,
            "--endpoints-file", directory.PathFor("second.json"), "--socket-dir", directory.PathFor("second")]);
        var publishTo = await first.WaitForEndpointsAsync(directory.PathFor("first.json"));
        var subscribeTo = await second.WaitForEndpointsAsync(directory.PathFor("second.json"));

        using var factory = RpcClientFactory.CreateDefault();
        await using var subscriberClient = factory.CreatePushClient(BindingNames.FastUds, subscribeTo[BindingNames.FastUds]);
        var received = new ConcurrentQueue<Notification>();
        await using var subscription = await subscriberClient.SubscribeAsync("room", received.Enqueue).Bounded();
        await using var publisher = factory.CreatePushClient(BindingNames.Pipes, publishTo[BindingNames.Pipes]);
        List<long> replies = [];
        for (var i = 1; i <= 5; i++)
        {
            replies.Add((await publisher.PublishAsync(new Notification { Topic = "room", Items = [i.ToString(CultureInfo.InvariantCulture)] }).Bounded()).Sequence);
        }

        await Eventually.HoldsAsync(() => received.Count(n => n.Sequence > 0) >= 5, TestTimeout.Default,
            () => $"received {received.Count}; first host:\n{first.Output}\nsecond host:\n{second.Output}");
        Assert.Equal([1L, 2, 3, 4, 5], replies);
        Assert.Equal(["1", "2", "3", "4", "5"], received.Where(n => n.Sequence > 0).Select(n => n.Items.Single()));
        Assert.Equal([1L, 2, 3, 4, 5], received.Where(n => n.Sequence > 0).Select(n => n.Sequence));
    }

    [Fact]
    public async Task EveryPushBinding_CarriesAResume_AndTheOtherHostSendsWhatItsLogHolds()
    {
        const string bindings = "pipes,fast-uds,grpc-uds,wcf-uds,wcf-http";
        await using var redis = await RedisServer.StartAsync();
        using var directory = new TemporaryDirectory();
        await using var first = HostProcess.Start("--bindings", "pipes", "--push-redis", redis.Configuration,
            "--endpoints-file", directory.PathFor("first.json"), "--socket-dir", directory.PathFor("first"));
        await using var second = HostProcess.Start("--bindings", bindings, "--push-redis", redis.Configuration,
            "--endpoints-file", directory.PathFor("second.json"), "--socket-dir", directory.PathFor("second"));
        var publishTo = await first.WaitForEndpointsAsync(directory.PathFor("first.json"));
        var subscribeTo = await second.WaitForEndpointsAsync(directory.PathFor("second.json"));
        using var factory = RpcClientFactory.CreateDefault();
        await using (var publisher = factory.CreatePushClient(BindingNames.Pipes, publishTo[BindingNames.Pipes]))
        {
            for (var i = 1; i <= 3; i++)
            {
                await publisher.PublishAsync(new Notification { Topic = "resume", Items = [i.ToString(CultureInfo.InvariantCulture)] }).Bounded();
            }
        }

        var pushBindings = factory.PushBindings.Where(subscribeTo.ContainsKey).ToList();
        Assert.Equal(bindings.Split(',').Order(), pushBindings.Order());
        foreach (var binding in pushBindings)
        {
            await using var client = factory.CreatePushClient(binding, subscribeTo[binding]);
            var received = new ConcurrentQueue<Notification>();
            await using var subscription = await client.SubscribeAsync("resume", received.Enqueue, after: 1).Bounded();
            await Eventually.HoldsAsync(() => received.Count(n => n.Sequence > 0) >= 2, TestTimeout.Default,
                () => $"{binding}: received {string.Join(", ", received.Select(n => n.Sequence))}; second host:\n{second.Output}");
            Assert.Equal(["2", "3"], received.Where(n => n.Sequence > 0).Select(n => n.Items.Single()));
        }
    }

    [Fact]
    public async Task APublishersTrace_ReachesTheOtherHost_WhichExportsItsDelivery_AndTheSubscriberCanContinueIt()
    {
        const string topic = "traced-room";
        await using var redis = await RedisServer.StartAsync();
        using var directory = new TemporaryDirectory();
        using var publishing = new OtlpHttpReceiver();
        using var delivering = new OtlpHttpReceiver();
        await using var first = HostProcess.Start("--bindings", "pipes", "--push-redis", redis.Configuration, "--otlp-endpoint", publishing.Address, "--otlp-protocol", "http/protobuf",
            "--endpoints-file", directory.PathFor("first.json"), "--socket-dir", directory.PathFor("first"));
        await using var second = HostProcess.Start("--bindings", "fast-uds", "--push-redis", redis.Configuration, "--otlp-endpoint", delivering.Address, "--otlp-protocol", "http/protobuf",
            "--endpoints-file", directory.PathFor("second.json"), "--socket-dir", directory.PathFor("second"));
        var publishTo = await first.WaitForEndpointsAsync(directory.PathFor("first.json"));
        var subscribeTo = await second.WaitForEndpointsAsync(directory.PathFor("second.json"));
        using var factory = RpcClientFactory.CreateDefault();
        await using var subscriberClient = factory.CreatePushClient(BindingNames.FastUds, subscribeTo[BindingNames.FastUds]);
        var received = new ConcurrentQueue<Notification>();
        await using var subscription = await subscriberClient.SubscribeAsync(topic, received.Enqueue).Bounded();
        await using var publisher = factory.CreatePushClient(BindingNames.Pipes, publishTo[BindingNames.Pipes]);

        var trace = new byte[16];
        // Sampled, as a traced caller's span is: the hosts' parent-based samplers record its children.
        using (var caller = new Activity("publisher") { ActivityTraceFlags = ActivityTraceFlags.Recorded }.SetIdFormat(ActivityIdFormat.W3C).Start())
        {
            caller.TraceId.CopyTo(trace);
            await publisher.PublishAsync(new Notification { Topic = topic, Items = ["1"] }).Bounded();
        }

        await Eventually.HoldsAsync(() => received.Any(n => n.Sequence > 0), TestTimeout.Default, () => $"nothing received; second host:\n{second.Output}");
        Assert.True(NotificationTrace.TryGetParent(received.First(n => n.Sequence > 0), out var parent));
        Assert.Equal(Convert.ToHexStringLower(trace), parent.TraceId.ToHexString());

        // The first host's span for the publish call, and the second's delivery (the topic is one of its attributes), in the publisher's trace.
        await Eventually.HoldsAsync(() => publishing.AnyTracePostHolds(trace, "Publish"), TestTimeout.Default,
            () => $"the publishing host exported no span of the trace ({publishing.Traces.Count} posts); its output:\n{first.Output}");
        await Eventually.HoldsAsync(() => delivering.AnyTracePostHolds(trace, topic) && delivering.AnyTracePostHolds(trace, PushTelemetry.DeliverySpanName), TestTimeout.Default,
            () => $"the delivering host exported no delivery of the trace ({delivering.Traces.Count} posts); its output:\n{second.Output}");
    }

    [Theory]
    [InlineData("127.0.0.1:6379,bogus=1", "", "is not a Redis configuration")]
    [InlineData(",password=x", "", "names no Redis server")]
    [InlineData("127.0.0.1:6379", "many", "Failed to convert configuration value 'many'")]
    public async Task ARedisSettingThatCannotWork_StopsTheHostWithTheReason(string configuration, string maxLength, string reason)
    {
        await using var host = HostProcess.Start(["--bindings", "pipes", "--push-redis", configuration, .. maxLength.Length > 0 ? new[] { "--Push:Redis:MaxLength", maxLength } : []]);

        Assert.Equal(2, await host.WaitForExitAsync());
        Assert.Contains(reason, host.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("127.0.0.1:4222", "", "is not a NATS server URL")]
    [InlineData("nats://127.0.0.1:4222", "a.b", "must be letters, digits, '-' and '_' only")]
    public async Task ANatsSettingThatCannotWork_StopsTheHostWithTheReason(string url, string prefix, string reason)
    {
        await using var host = HostProcess.Start(["--bindings", "pipes", "--push-nats", url, .. prefix.Length > 0 ? new[] { "--Push:Nats:Prefix", prefix } : []]);

        Assert.Equal(2, await host.WaitForExitAsync());
        Assert.Contains(reason, host.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TwoBrokers_StopTheHost_OneIsTheRule()
    {
        await using var host = HostProcess.Start("--bindings", "pipes", "--push-redis", "127.0.0.1:6379", "--push-nats", "nats://127.0.0.1:4222");

        Assert.Equal(2, await host.WaitForExitAsync());
        Assert.Contains("choose one", host.Output, StringComparison.Ordinal);
    }

    private static async Task<(LoopbackServer Server, string[] Arguments)> StartBrokerAsync(string broker) => broker switch
    {
        "redis" => await RedisServer.StartAsync() is var redis ? (redis, ["--push-redis", redis.Configuration]) : default,
        "nats" => await NatsServer.StartAsync() is var nats ? (nats, ["--push-nats", nats.Url]) : default,
        _ => throw new ArgumentOutOfRangeException(nameof(broker), broker, "redis or nats"),
    };
}
