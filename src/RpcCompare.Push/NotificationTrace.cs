using System.Diagnostics;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Push;

/// <summary>
/// The W3C trace context a notification carries (<see cref="Notification.TraceParent"/>,
/// <see cref="Notification.TraceState"/>), so that a publisher's trace goes on wherever the
/// publication is delivered: on every host that queues it (through a broker too) and in every
/// subscriber. One place decides what a publisher's client writes, what the host passes on and
/// what a subscriber may trust.
/// </summary>
public static class NotificationTrace
{
    /// <summary>A traceparent is 55 characters (version 00); a longer one is not read.</summary>
    public const int MaxTraceParentLength = 55;

    /// <summary>A tracestate longer than this (the W3C limit for 32 members) is dropped.</summary>
    public const int MaxTraceStateLength = 512;

    /// <summary>
    /// What a publisher's client sends: <paramref name="notification"/> itself when it carries a trace
    /// already or the caller has no current span with W3C ids; else a copy carrying the caller's span
    /// (the caller's object is left as it was, so publishing it again from another span is not misread).
    /// </summary>
    public static Notification WithCallersTrace(Notification notification)
    {
        ArgumentNullException.ThrowIfNull(notification);
        return notification.TraceParent is null && Activity.Current is { IdFormat: ActivityIdFormat.W3C } caller
            ? Copy(notification, caller.Id, Bounded(caller.TraceStateString))
            : notification;
    }

    /// <summary>
    /// The publisher's span as a remote parent, for a subscriber (or a host) that continues the trace;
    /// false for an untraced notification or a traceparent that is not valid W3C (a tracestate over
    /// <see cref="MaxTraceStateLength"/> is left out, not the parent).
    /// </summary>
    public static bool TryGetParent(Notification notification, out ActivityContext parent)
    {
        ArgumentNullException.ThrowIfNull(notification);
        parent = default;
        return notification.TraceParent is { Length: <= MaxTraceParentLength } traceParent
            && ActivityContext.TryParse(traceParent, Bounded(notification.TraceState), isRemote: true, out parent);
    }

    /// <summary>
    /// What a host publishes: the span it recorded for the publish call, if there is one in the
    /// publisher's trace (the binding carried the caller's context) or the publisher wrote none; else
    /// what the publisher wrote, if it is valid; else nothing. A client that writes the notification's
    /// context but not the call's (a generated one, say) keeps its trace; the host never passes on a
    /// value it could not read.
    /// </summary>
    internal static (string? Parent, string? State) ForPublication(Notification notification)
    {
        var written = TryGetParent(notification, out var publisher);
        if (Activity.Current is { Recorded: true, Kind: ActivityKind.Server, IdFormat: ActivityIdFormat.W3C } call
            && (!written || call.TraceId == publisher.TraceId))
        {
            // The fast and pipes bindings carry the call's context without its tracestate: the publisher's goes on.
            return (call.Id, Bounded(call.TraceStateString) ?? (written ? publisher.TraceState : null));
        }

        return written ? (notification.TraceParent, publisher.TraceState) : (null, null);
    }

    /// <summary>
    /// A notification read from a broker (where anyone allowed to write could have put it) keeps only a
    /// context a subscriber can read: a traceparent that is not valid goes with its tracestate, and a
    /// tracestate over <see cref="MaxTraceStateLength"/> goes alone.
    /// </summary>
    internal static void Clean(Notification notification)
    {
        if (notification.TraceParent is null && notification.TraceState is null)
        {
            return;
        }

        if (TryGetParent(notification, out var parent))
        {
            notification.TraceState = parent.TraceState;
        }
        else
        {
            notification.TraceParent = null;
            notification.TraceState = null;
        }
    }

    /// <summary>A copy of <paramref name="notification"/> with another trace context; the items list is shared.</summary>
    internal static Notification Copy(Notification notification, string? traceParent, string? traceState) => new()
    {
        Topic = notification.Topic,
        Sequence = notification.Sequence,
        SentTimestamp = notification.SentTimestamp,
        Publisher = notification.Publisher,
        Items = notification.Items,
        TraceParent = traceParent,
        TraceState = traceState,
    };

    private static string? Bounded(string? traceState) => traceState is { Length: > 0 and <= MaxTraceStateLength } ? traceState : null;
}
