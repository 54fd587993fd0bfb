using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Brokers.Tests.Metrics;

/// <summary>The registry's metrics (<see cref="PushMetrics"/>) read what it holds when collected.</summary>
public sealed class PushMetricsTests
{
    [Fact]
    public async Task TheMetrics_CountTopicsSubscribersWaitingPublicationsAndDroppedSubscribers()
    {
        await using var services = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var meters = services.GetRequiredService<IMeterFactory>();
        var registry = new TopicRegistry(Options.Create(new PushOptions { QueueCapacity = 3 }), NullLogger<TopicRegistry>.Instance, meters: meters);
        var (reading, _) = await registry.SubscribeAsync("a");
        var (stalled, _) = await registry.SubscribeAsync("a");
        using var other = (await registry.SubscribeAsync("b")).Subscriber;
        for (var i = 0; i < 3; i++)
        {
            registry.Publish(new Notification { Topic = "a" });
            Assert.True(reading.Notifications.TryRead(out _));
        }

        registry.Publish(new Notification { Topic = "b" });
        Assert.Equal(
            new Dictionary<string, long>
            {
                ["rpccompare.push.topics"] = 2, ["rpccompare.push.subscribers"] = 3, ["rpccompare.push.queue.depth"] = 4,
                ["rpccompare.push.queue.deepest"] = 3, ["rpccompare.push.publications"] = 4, ["rpccompare.push.subscribers.dropped"] = 0,
            },
            Collect(meters));

        // The fourth publication finds the stalled subscriber's queue full: dropped, its three no longer waiting.
        registry.Publish(new Notification { Topic = "a" });
        var after = Collect(meters);
        Assert.Equal((2L, 1L, 2L, 1L), (after["rpccompare.push.subscribers"], after["rpccompare.push.subscribers.dropped"], after["rpccompare.push.queue.depth"], after["rpccompare.push.queue.deepest"]));
        Assert.NotNull(stalled.EndReason);
        reading.Dispose();
    }

    private static Dictionary<string, long> Collect(IMeterFactory meters)
    {
        Dictionary<string, long> values = [];
        using var listener = new MeterListener
        {
            // This test's registry only: its meter comes from this test's factory.
            InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == PushMetrics.MeterName && ReferenceEquals(instrument.Meter.Scope, meters))
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            },
        };
        listener.SetMeasurementEventCallback<int>((instrument, value, _, _) => values[instrument.Name] = value);
        listener.SetMeasurementEventCallback<long>((instrument, value, _, _) => values[instrument.Name] = value);
        listener.Start();
        listener.RecordObservableInstruments();
        return values;
    }
}
