using System.Diagnostics.Metrics;

namespace RpcCompare.Push;

/// <summary>
/// The host's topics as OpenTelemetry metrics (meter <see cref="MeterName"/>): topics and subscribers
/// now, the publications waiting in subscribers' queues (in all, and the deepest queue), publications
/// queued and subscribers dropped for a full queue since the host started. All observed: read from the
/// <see cref="TopicRegistry"/> when a reader collects (a Prometheus scrape, an export), so publishing
/// and subscribing pay nothing for them.
/// </summary>
public static class PushMetrics
{
    /// <summary>The meter to subscribe to.</summary>
    public const string MeterName = "RpcCompare.Push";

    /// <summary>The registry's observed instruments; the meter, for the instruments measured as things happen.</summary>
    internal static Meter Observe(IMeterFactory meters, TopicRegistry registry)
    {
        var meter = meters.Create(MeterName);
        meter.CreateObservableUpDownCounter("rpccompare.push.topics", () => registry.Statistics.Topics, "{topic}",
            "Topics with at least one subscriber on this host.");
        meter.CreateObservableUpDownCounter("rpccompare.push.subscribers", () => registry.Statistics.Subscribers, "{subscriber}",
            "Subscriptions open on this host, every binding.");
        meter.CreateObservableUpDownCounter("rpccompare.push.queue.depth", () => registry.QueueDepths().Total, "{notification}",
            "Publications waiting in subscribers' queues to be sent, in all.");
        meter.CreateObservableGauge("rpccompare.push.queue.deepest", () => registry.QueueDepths().Deepest, "{notification}",
            "Publications waiting in the fullest subscriber's queue (it is dropped at Push:QueueCapacity).");
        meter.CreateObservableCounter("rpccompare.push.publications", () => registry.Published, "{publication}",
            "Publications queued for this host's subscribers (once per publication, however many subscribers).");
        meter.CreateObservableCounter("rpccompare.push.subscribers.dropped", () => registry.Disconnected, "{subscriber}",
            "Subscribers the host ended because their queue was full (they read too slowly).");
        return meter;
    }
}
