using System.Collections.Concurrent;
using System.Diagnostics;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests.Push;

/// <summary>
/// A publisher's trace reaches its subscribers on every push binding and variant: the client writes the caller's
/// W3C trace context into the notification (<see cref="NotificationTrace"/>) and the host's delivery span
/// (<see cref="PushTelemetry"/>) continues it. The listeners are the process's, so the class runs with <see cref="ServerTelemetryTests"/>, alone.
/// </summary>
[Collection(nameof(ServerTelemetryTests))]
public sealed class PushTraceTests : IAsyncLifetime
{
    private const string CallerSourceName = "RpcCompare.Client.Tests.Publisher";
    private static readonly ActivitySource s_callers = new(CallerSourceName);
    private readonly ConcurrentQueue<Activity> _deliveries = new();
    private readonly ActivityListener _listener;
    private InProcessHost _host = null!;
    private RpcClientFactory _factory = null!;

    public PushTraceTests()
    {
        _listener = new ActivityListener
        {
            // Not the host's call spans: none is recorded, so the context each publication carries is the one its client
            // wrote (NotificationTrace.WithCallersTrace); a host's own span replacing it is NotificationTraceTests' and
            // HostPushAcrossReplicasTests' to show.
            ShouldListenTo = source => source.Name is PushTelemetry.SourceName or CallerSourceName,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = span =>
            {
                if (span.Source.Name == PushTelemetry.SourceName)
                {
                    _deliveries.Enqueue(span);
                }
            },
        };
        ActivitySource.AddActivityListener(_listener);
    }

    public static TheoryData<string, string> PushVariants => PushBindingTests.PushVariants;

    public async Task InitializeAsync()
    {
        _host = await InProcessHost.StartAsync();
        _factory = RpcClientFactory.CreateDefault();
    }

    public async Task DisposeAsync()
    {
        _listener.Dispose();
        _factory.Dispose();
        await _host.DisposeAsync();
    }

    [Theory]
    [MemberData(nameof(PushVariants))]
    public async Task APublishersTrace_ReachesTheSubscriber_AndTheHostsDeliveryContinuesIt(string binding, string variant)
    {
        var topic = $"traced-{binding}-{variant}";
        var received = new TaskCompletionSource<Notification>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var subscriber = _factory.CreatePushClient(binding, _host.Address(binding), variant);
        await subscriber.SubscribeAsync(topic, n => received.TrySetResult(n)).Bounded();
        await using var publisher = _factory.CreatePushClient(binding, _host.Address(binding), variant);

        Assert.False(RpcServerTelemetry.IsEnabled, "another class listens to the host's call spans");
        ActivityTraceId trace;
        ActivitySpanId span;
        using (var caller = s_callers.StartActivity("publish", ActivityKind.Producer))
        {
            Assert.NotNull(caller);
            (trace, span) = (caller.TraceId, caller.SpanId);
            await publisher.PublishAsync(new Notification { Topic = topic, Items = ["traced"] }).Bounded();
        }

        var notification = await received.Task.Bounded();
        Assert.True(NotificationTrace.TryGetParent(notification, out var parent), $"no trace context in the notification: '{notification.TraceParent}'");
        Assert.Equal((trace, span), (parent.TraceId, parent.SpanId));

        Activity? delivery = null;
        await Eventually.HoldsAsync(
            () => (delivery = _deliveries.FirstOrDefault(d => Equals(d.GetTagItem("messaging.destination.name"), topic))) is not null,
            TestTimeout.Default, () => $"no delivery span for topic {topic}");
        Assert.Equal((trace, span), (delivery!.TraceId, delivery.ParentSpanId));

        // Published outside any span (and the host recording none): the notification carries nothing, and no delivery span is recorded.
        var untraced = new TaskCompletionSource<Notification>(TaskCreationOptions.RunContinuationsAsynchronously);
        var untracedTopic = topic + "-untraced";
        await subscriber.SubscribeAsync(untracedTopic, n => untraced.TrySetResult(n)).Bounded();
        await publisher.PublishAsync(new Notification { Topic = untracedTopic, Items = ["untraced"] }).Bounded();
        var plain = await untraced.Task.Bounded();
        Assert.Equal((null, null), (plain.TraceParent, plain.TraceState));
        Assert.DoesNotContain(_deliveries, d => Equals(d.GetTagItem("messaging.destination.name"), untracedTopic));
    }
}
