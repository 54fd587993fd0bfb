using System.Collections.Concurrent;
using System.Diagnostics;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

namespace RpcCompare.Push.Brokers.Tests.Tracing;

/// <summary>
/// The W3C trace context a publication carries (<see cref="NotificationTrace"/>, <see cref="PushTelemetry"/>):
/// what a publisher's client writes, what a host passes on, and the span each delivery records. The listeners are
/// the process's: spans are told apart by this class's own topics and source.
/// </summary>
public sealed class NotificationTraceTests : IDisposable
{
    private const string PublisherParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    private const string ServerSourceName = "RpcCompare.Push.Brokers.Tests.Server";
    private static readonly ActivitySource s_server = new(ServerSourceName);
    private readonly ConcurrentQueue<Activity> _deliveries = new();
    private readonly ActivityListener _listener;
    private readonly string _topic = $"traced-{Guid.NewGuid():N}";

    public NotificationTraceTests()
    {
        _listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name is PushTelemetry.SourceName or ServerSourceName,
            // A server span named "unsampled" is created but not recorded, as a ratio sampler leaves most.
            Sample = (ref ActivityCreationOptions<ActivityContext> options) => options.Name == "unsampled" ? ActivitySamplingResult.PropagationData : ActivitySamplingResult.AllDataAndRecorded,
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

    public void Dispose() => _listener.Dispose();

    [Fact]
    public void WithCallersTrace_OutsideASpan_SendsTheNotificationAsItIs()
    {
        Assert.Null(Activity.Current);
        var notification = new Notification { Topic = _topic };
        Assert.Same(notification, NotificationTrace.WithCallersTrace(notification));
        Assert.Null(notification.TraceParent);
    }

    [Fact]
    public void WithCallersTrace_InASpan_SendsACopyCarryingIt_AndLeavesTheCallersObjectAlone()
    {
        using var caller = new Activity("caller").SetIdFormat(ActivityIdFormat.W3C).Start();
        caller.TraceStateString = "rojo=1";
        var notification = new Notification { Topic = _topic, Sequence = 3, SentTimestamp = 4, Publisher = "p", Items = ["x"] };

        var sent = NotificationTrace.WithCallersTrace(notification);

        Assert.NotSame(notification, sent);
        Assert.Equal((caller.Id, "rojo=1"), (sent.TraceParent, sent.TraceState));
        Assert.Equal((_topic, 3L, 4L, "p"), (sent.Topic, sent.Sequence, sent.SentTimestamp, sent.Publisher));
        Assert.Same(notification.Items, sent.Items);
        Assert.Equal((null, null), (notification.TraceParent, notification.TraceState));
    }

    [Fact]
    public void WithCallersTrace_ANotificationThatCarriesATrace_KeepsItsOwn()
    {
        using var caller = new Activity("caller").SetIdFormat(ActivityIdFormat.W3C).Start();
        var notification = new Notification { Topic = _topic, TraceParent = PublisherParent };
        Assert.Same(notification, NotificationTrace.WithCallersTrace(notification));
        Assert.Equal(PublisherParent, notification.TraceParent);
    }

    [Fact]
    public void WithCallersTrace_ASpanInTheHierarchicalFormat_IsNotWritten()
    {
        using var caller = new Activity("caller").SetIdFormat(ActivityIdFormat.Hierarchical).Start();
        var notification = new Notification { Topic = _topic };
        Assert.Same(notification, NotificationTrace.WithCallersTrace(notification));
    }

    [Theory]
    [InlineData("")]
    [InlineData("garbage")]
    [InlineData("00-00000000000000000000000000000000-b7ad6b7169203331-01")] // an all-zero trace id is invalid in W3C
    [InlineData("00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01")] // so is an all-zero span id
    [InlineData("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-")] // 56 characters
    public void TryGetParent_ATraceParentThatIsNotValid_IsNoParent(string traceParent)
    {
        Assert.False(NotificationTrace.TryGetParent(new Notification { TraceParent = traceParent }, out var parent));
        Assert.Equal(default, parent);
    }

    [Fact]
    public void TryGetParent_AValidTraceParent_IsTheRemoteParent_AndATraceStateOverTheLimitIsLeftOut()
    {
        var atLimit = "a=" + new string('b', NotificationTrace.MaxTraceStateLength - 2);
        Assert.True(NotificationTrace.TryGetParent(new Notification { TraceParent = PublisherParent, TraceState = atLimit }, out var parent));
        Assert.Equal(("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", true, atLimit), (parent.TraceId.ToHexString(), parent.SpanId.ToHexString(), parent.IsRemote, parent.TraceState));

        Assert.True(NotificationTrace.TryGetParent(new Notification { TraceParent = PublisherParent, TraceState = atLimit + "b" }, out parent));
        Assert.Null(parent.TraceState);
    }

    [Theory]
    [InlineData(PublisherParent, "rojo=1", PublisherParent, "rojo=1")]
    [InlineData("garbage", "rojo=1", null, null)]
    [InlineData(null, "rojo=1", null, null)]
    public async Task AHost_PassesOnAValidTraceFromThePublisher_AndDropsOneItCannotRead(string? sentParent, string? sentState, string? deliveredParent, string? deliveredState)
    {
        using var registry = NewRegistry();
        using var subscriber = (await registry.SubscribeAsync(_topic)).Subscriber;

        registry.Publish(new Notification { Topic = _topic, TraceParent = sentParent, TraceState = sentState });

        var delivered = await ReadAsync(subscriber);
        Assert.Equal((deliveredParent, deliveredState), (delivered.TraceParent, delivered.TraceState));
    }

    [Fact]
    public async Task AHost_LeavesOutATraceStateOverTheLimit_AndKeepsTheParent()
    {
        using var registry = NewRegistry();
        using var subscriber = (await registry.SubscribeAsync(_topic)).Subscriber;
        var tooLong = "a=" + new string('b', NotificationTrace.MaxTraceStateLength - 1);

        registry.Publish(new Notification { Topic = _topic, TraceParent = PublisherParent, TraceState = tooLong });

        var delivered = await ReadAsync(subscriber);
        Assert.Equal((PublisherParent, null), (delivered.TraceParent, delivered.TraceState));
    }

    [Fact]
    public async Task AHostSpanWithoutATraceState_KeepsThePublishers()
    {
        // The fast and pipes bindings carry a call's trace and span ids, not its tracestate.
        using var registry = NewRegistry();
        using var subscriber = (await registry.SubscribeAsync(_topic)).Subscriber;
        using var call = s_server.StartActivity("publish", ActivityKind.Server, ActivityContext.Parse(PublisherParent, null));
        Assert.NotNull(call);

        registry.Publish(new Notification { Topic = _topic, TraceParent = PublisherParent, TraceState = "rojo=1" });

        var delivered = await ReadAsync(subscriber);
        Assert.Equal((call.Id, "rojo=1"), (delivered.TraceParent, delivered.TraceState));
    }

    [Theory]
    [InlineData(PublisherParent, "rojo=1", PublisherParent, "rojo=1")]
    [InlineData("not a traceparent", "rojo=1", null, null)]
    [InlineData(null, "rojo=1", null, null)]
    [InlineData(PublisherParent, null, PublisherParent, null)]
    public void WhatABrokerHolds_IsCleanedAsItIsRead(string? storedParent, string? storedState, string? readParent, string? readState)
    {
        // What anyone allowed to write to the broker could have put there.
        var stored = NotificationProtobuf.Serialize(new Notification { Topic = _topic, TraceParent = storedParent, TraceState = storedState });

        var read = NotificationProtobuf.Deserialize(stored, 1);

        Assert.Equal((readParent, readState), (read.TraceParent, read.TraceState));
        Assert.Null(NotificationProtobuf.Deserialize(NotificationProtobuf.Serialize(new Notification { Topic = _topic, TraceParent = PublisherParent, TraceState = new string('a', 513) }), 1).TraceState);
    }

    [Fact]
    public async Task TheHostsRecordedSpanForThePublishCall_IsWhatThePublicationCarries_WhenInThePublishersTrace()
    {
        using var registry = NewRegistry();
        using var subscriber = (await registry.SubscribeAsync(_topic)).Subscriber;
        var publisher = ActivityContext.Parse(PublisherParent, null);
        using (var call = s_server.StartActivity("publish", ActivityKind.Server, publisher))
        {
            // The binding carried the caller's context: the host's span continues it.
            Assert.NotNull(call);
            registry.Publish(new Notification { Topic = _topic, TraceParent = PublisherParent });
            Assert.Equal(call.Id, (await ReadAsync(subscriber)).TraceParent);
        }

        using (var call = s_server.StartActivity("publish", ActivityKind.Server))
        {
            // The publisher wrote none: the host's span begins the publication's trace.
            Assert.NotNull(call);
            registry.Publish(new Notification { Topic = _topic });
            Assert.Equal(call.Id, (await ReadAsync(subscriber)).TraceParent);

            // A span in another trace (a client that wrote the notification's context but not the call's) does not
            // replace the publisher's.
            registry.Publish(new Notification { Topic = _topic, TraceParent = PublisherParent });
            Assert.Equal(PublisherParent, (await ReadAsync(subscriber)).TraceParent);
        }

        // Nor does a span that is not recorded (sampled out), or one that is not a server's.
        using (s_server.StartActivity("unsampled", ActivityKind.Server))
        {
            registry.Publish(new Notification { Topic = _topic });
        }

        using (s_server.StartActivity("internal", ActivityKind.Internal, publisher))
        {
            registry.Publish(new Notification { Topic = _topic, TraceParent = PublisherParent });
        }

        Assert.Null((await ReadAsync(subscriber)).TraceParent);
        Assert.Equal(PublisherParent, (await ReadAsync(subscriber)).TraceParent);
    }

    [Fact]
    public async Task AnUntracedPublication_HasNoDeliverySpan()
    {
        using var registry = NewRegistry();
        using var subscriber = (await registry.SubscribeAsync(_topic)).Subscriber;

        registry.Publish(new Notification { Topic = _topic });

        await ReadAsync(subscriber);
        Assert.DoesNotContain(_deliveries, d => Equals(d.GetTagItem("messaging.destination.name"), _topic));
    }

    [Fact]
    public async Task EachDelivery_IsAConsumerSpan_ChildOfTheSpanThePublicationCarries()
    {
        using var registry = NewRegistry();
        using var first = (await registry.SubscribeAsync(_topic)).Subscriber;
        using var second = (await registry.SubscribeAsync(_topic)).Subscriber;

        registry.Publish(new Notification { Topic = _topic, TraceParent = PublisherParent });

        var span = Assert.Single(_deliveries, d => Equals(d.GetTagItem("messaging.destination.name"), _topic));
        Assert.Equal((PushTelemetry.DeliverySpanName, ActivityKind.Consumer), (span.DisplayName, span.Kind));
        Assert.Equal(("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", true), (span.TraceId.ToHexString(), span.ParentSpanId.ToHexString(), span.HasRemoteParent));
        Assert.Equal("1", span.GetTagItem("messaging.message.id"));
        Assert.Equal("process", span.GetTagItem("messaging.operation.type"));
        Assert.Equal(2, span.GetTagItem("rpccompare.push.queued"));
    }

    private static TopicRegistry NewRegistry() => new(Options.Create(new PushOptions()), NullLogger<TopicRegistry>.Instance);

    private static async Task<Notification> ReadAsync(PushSubscriber subscriber)
    {
        using var timeout = new CancellationTokenSource(TestTimeout.Default);
        return (await subscriber.Notifications.ReadAsync(timeout.Token)).Notification;
    }
}
