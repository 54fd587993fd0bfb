using System.Diagnostics.Metrics;
using Microsoft.Extensions.Logging.Abstractions;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Brokers.Tests;

/// <summary>
/// Hosts' topic registries sharing one broker, as replicas behind a balancer do; each test's replicas
/// have a prefix of their own (keys, streams, subjects) so tests on one server do not meet.
/// </summary>
public sealed class Replicas : IAsyncDisposable
{
    private readonly List<(TopicRegistry Registry, IPushBroker Broker)> _replicas = [];

    /// <param name="newBroker">A new connection to the broker, with <see cref="Prefix"/> as its prefix.</param>
    /// <param name="count">How many replicas.</param>
    /// <param name="queueCapacity">Each subscriber's queue (Push:QueueCapacity).</param>
    /// <param name="firstReplicasMeters">Where the first replica's metrics go; none by default, and never the others'.</param>
    public Replicas(Func<string, IPushBroker> newBroker, int count = 2, int queueCapacity = 256, IMeterFactory? firstReplicasMeters = null)
    {
        ArgumentNullException.ThrowIfNull(newBroker);
        for (var i = 0; i < count; i++)
        {
            var broker = newBroker(Prefix);
            var options = Microsoft.Extensions.Options.Options.Create(new PushOptions { QueueCapacity = queueCapacity });
            _replicas.Add((new TopicRegistry(options, NullLogger<TopicRegistry>.Instance, broker, i == 0 ? firstReplicasMeters : null), broker));
        }
    }

    public string Prefix { get; } = $"test-{Guid.NewGuid():N}";

    public TopicRegistry this[int index] => _replicas[index].Registry;

    public static Notification Numbered(string topic, int number) => new() { Topic = topic, Publisher = "test", Items = [number.ToString(System.Globalization.CultureInfo.InvariantCulture)] };

    public async ValueTask DisposeAsync()
    {
        foreach (var (registry, broker) in _replicas)
        {
            await registry.DisposeAsync();
            if (broker is IAsyncDisposable disposable)
            {
                await disposable.DisposeAsync();
            }
        }
    }
}
