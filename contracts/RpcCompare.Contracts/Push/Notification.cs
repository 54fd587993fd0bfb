using System.Runtime.Serialization;

namespace RpcCompare.Contracts.Push;

/// <summary>
/// One publication as every subscriber of its topic receives it. The shape of the original push
/// measurement's message: a handful of fields and a list of short strings.
/// </summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class Notification
{
    /// <summary>The topic it was published to.</summary>
    [DataMember(Order = 1)]
    public string Topic { get; set; } = "";

    /// <summary>
    /// The topic's sequence number, given by the server when it accepts the publication: 1, 2, 3 …
    /// per topic, so a subscriber sees gaps and reordering. 0 only in the confirmation that opens a
    /// gRPC subscription stream (see <see cref="IPushService.SubscribeAsync"/>).
    /// </summary>
    [DataMember(Order = 2)]
    public long Sequence { get; set; }

    /// <summary>
    /// When the publisher sent it, as <c>Stopwatch.GetTimestamp()</c> in the publisher's process:
    /// on Linux the monotonic clock, so a subscriber on the same machine subtracts it from its own
    /// timestamp for the delivery latency. Meaningless across machines.
    /// </summary>
    [DataMember(Order = 3)]
    public long SentTimestamp { get; set; }

    /// <summary>Who published it, so a room member can tell its own publications from the others'.</summary>
    [DataMember(Order = 4, EmitDefaultValue = false)]
    public string? Publisher { get; set; }

    /// <summary>The payload: short strings (the original used 20).</summary>
    [DataMember(Order = 5)]
    public List<string> Items { get; set; } = [];

    /// <summary>
    /// The W3C <c>traceparent</c> of the span that published it, so that a subscriber (and every host
    /// that delivers it) can continue the publisher's trace; null for an untraced publication. A
    /// publisher's client writes the caller's current span; the host replaces it with the span it
    /// recorded for the publish call when that span is in the same trace (or none was written), and
    /// drops a value that is not a valid traceparent.
    /// </summary>
    [DataMember(Order = 6, EmitDefaultValue = false)]
    public string? TraceParent { get; set; }

    /// <summary>The W3C <c>tracestate</c> that goes with <see cref="TraceParent"/>, if any (at most 512 characters).</summary>
    [DataMember(Order = 7, EmitDefaultValue = false)]
    public string? TraceState { get; set; }
}
