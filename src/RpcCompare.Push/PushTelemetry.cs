using System.Diagnostics;
using System.Globalization;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Push;

/// <summary>
/// A span for each traced publication a host queues for its subscribers (ActivitySource <see cref="SourceName"/>),
/// whether it was published on this host or came from the broker's feed: kind Consumer, named
/// <c>deliver</c> (a topic name is the caller's and may be anything, so it is an attribute, not part of the
/// name), a child of the span the notification carries (<see cref="NotificationTrace"/>), so a publisher's
/// trace shows every host that delivered its publication and how long queuing took there. Nothing is
/// recorded, and one check is spent, unless something listens.
/// </summary>
public static class PushTelemetry
{
    /// <summary>The ActivitySource to subscribe to (the same name as the push metrics' meter).</summary>
    public const string SourceName = PushMetrics.MeterName;

    /// <summary>The delivery span's name.</summary>
    public const string DeliverySpanName = "deliver";

    private static readonly ActivitySource s_source = new(SourceName, typeof(PushTelemetry).Assembly.GetName().Version?.ToString());

    /// <summary>A delivery of <paramref name="notification"/> begins (null when nothing listens or it carries no trace); stop it once it is queued.</summary>
    internal static Activity? StartDelivery(Notification notification)
    {
        // An untraced publication has no trace to show its deliveries in (and a root span per host and publication
        // would be made a child of whatever span the feed's task happened to start under).
        if (!s_source.HasListeners() || !NotificationTrace.TryGetParent(notification, out var parent))
        {
            return null;
        }

        var span = s_source.StartActivity(DeliverySpanName, ActivityKind.Consumer, parent);
        if (span is { IsAllDataRequested: true })
        {
            span.SetTag("messaging.system", "rpccompare");
            span.SetTag("messaging.operation.type", "process");
            span.SetTag("messaging.operation.name", DeliverySpanName);
            span.SetTag("messaging.destination.name", notification.Topic);
            span.SetTag("messaging.message.id", notification.Sequence.ToString(CultureInfo.InvariantCulture));
        }

        return span;
    }

    /// <summary>The delivery queued the publication for <paramref name="queued"/> subscribers here.</summary>
    internal static void EndDelivery(Activity? span, int queued)
    {
        if (span is null)
        {
            return;
        }

        span.SetTag("rpccompare.push.queued", queued);
        span.Stop();
    }
}
