using Microsoft.Extensions.Logging.Abstractions;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Redis.Tests;

/// <summary>
/// Hosts' topic registries sharing one Redis, as replicas behind a balancer do, with keys of their
/// own (a prefix per instance) so tests on one server do not meet.
/// </summary>
internal sealed class Replicas : IAsyncDisposable
{
    private readonly List<(TopicRegistry Registry, RedisPushBroker Broker)> _replicas = [];

    public Replicas(string configuration, int count = 2, int queueCapacity = 256)
    {
        Options = new RedisPushOptions { Configuration = configuration, KeyPrefix = $"test-{Guid.NewGuid():N}:" };
        for (var i = 0; i < count; i++)
        {
            var broker = new RedisPushBroker(Microsoft.Extensions.Options.Options.Create(Options), NullLogger<RedisPushBroker>.Instance);
            _replicas.Add((new TopicRegistry(Microsoft.Extensions.Options.Options.Create(new PushOptions { QueueCapacity = queueCapacity }), NullLogger<TopicRegistry>.Instance, broker), broker));
        }
    }

    public RedisPushOptions Options { get; }

    public TopicRegistry this[int index] => _replicas[index].Registry;

    public static Notification Numbered(string topic, int number) => new() { Topic = topic, Publisher = "test", Items = [number.ToString(System.Globalization.CultureInfo.InvariantCulture)] };

    public async ValueTask DisposeAsync()
    {
        foreach (var (registry, broker) in _replicas)
        {
            await registry.DisposeAsync();
            await broker.DisposeAsync();
        }
    }
}
