using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Testing;

namespace RpcCompare.Push.Brokers.Tests;

/// <summary>What every broker carries for telemetry: a publication's trace context, and the broker's share of its way measured on the publishing replica.</summary>
public abstract partial class PushBrokerTests
{
    [Fact]
    public async Task APublicationsTraceContext_ReachesTheSubscribersOfEveryReplica_AndAnUntracedOrUnreadableOneCarriesNone()
    {
        // What a publisher's client writes (NotificationTrace.WithCallersTrace); no span is current here, so the
        // replica passes it on as it came.
        const string traceParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        await using var replicas = NewReplicas();
        var (onFirst, _) = await replicas[0].SubscribeAsync(Awkward);
        var (onSecond, _) = await replicas[1].SubscribeAsync(Awkward);
        var traced = Replicas.Numbered(Awkward, 1);
        traced.TraceParent = traceParent;
        traced.TraceState = "rojo=00f067aa0ba902b7";
        await replicas[0].PublishAsync(traced);
        await replicas[1].PublishAsync(Replicas.Numbered(Awkward, 2));
        var unreadable = Replicas.Numbered(Awkward, 3);
        unreadable.TraceParent = "not a traceparent";
        await replicas[1].PublishAsync(unreadable);

        foreach (var subscriber in new[] { onFirst, onSecond })
        {
            var received = await ReadAsync(subscriber, 3);
            Assert.Equal((traceParent, "rojo=00f067aa0ba902b7"), (received[0].TraceParent, received[0].TraceState));
            Assert.Equal((null, null), (received[1].TraceParent, received[1].TraceState));

            // The replica it was published on did not pass on what it could not read.
            Assert.Equal((null, null), (received[2].TraceParent, received[2].TraceState));
        }
    }

    [Fact]
    public async Task TheBrokersShare_IsMeasuredOnThePublishingReplica_OncePerPublicationOfItsOwn()
    {
        await using var services = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var meters = services.GetRequiredService<IMeterFactory>();
        var measured = new ConcurrentQueue<(string Name, double Seconds)>();
        using var listener = new MeterListener
        {
            // The first replica's histograms only: its meter comes from this test's factory.
            InstrumentPublished = (instrument, l) =>
            {
                if (instrument.Meter.Name == PushMetrics.MeterName && ReferenceEquals(instrument.Meter.Scope, meters) && instrument is Histogram<double>)
                {
                    l.EnableMeasurementEvents(instrument);
                }
            },
        };
        listener.SetMeasurementEventCallback<double>((instrument, seconds, _, _) => measured.Enqueue((instrument.Name, seconds)));
        listener.Start();
        await using var replicas = new Replicas(prefix => NewBroker(Server.Port, prefix), firstReplicasMeters: meters);
        var (subscriber, _) = await replicas[1].SubscribeAsync(Awkward);

        // Both replicas publish at once: the other's publications come through the first's feed too, and are not its own.
        await Task.WhenAll(Enumerable.Range(0, 2).Select(r => Task.Run(async () =>
        {
            for (var i = 0; i < 20; i++)
            {
                await replicas[r].PublishAsync(Replicas.Numbered(Awkward, (r * 100) + i));
            }
        })));
        await ReadAsync(subscriber, 40);

        const string published = "rpccompare.push.broker.publish.duration", fed = "rpccompare.push.broker.feed.delay";
        await Eventually.HoldsAsync(() => measured.Count(m => m.Name == fed) >= 20, TestTimeout.Default,
            () => $"feed delays measured: {measured.Count(m => m.Name == fed)} of 20");
        Assert.Equal(20, measured.Count(m => m.Name == published));
        Assert.Equal(20, measured.Count(m => m.Name == fed));
        Assert.All(measured, m => Assert.InRange(m.Seconds, double.Epsilon, 10));
    }
}
