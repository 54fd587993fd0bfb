namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>What a frame is. Values are the wire's; unknown ones are a protocol error.</summary>
internal enum FrameKind : byte
{
    /// <summary>Client to server: a call of the operation in the header, its request message as the body.</summary>
    Request = 1,

    /// <summary>Server to client: the reply message of the call with the header's id.</summary>
    Reply = 2,

    /// <summary>Server to client: the call with the header's id failed (<see cref="ErrorBody"/>); id 0: the connection is refused or closed.</summary>
    Error = 3,

    /// <summary>
    /// Client to server: cancel the call with the header's id (its service's CancellationToken, if it
    /// takes one, fires). If the call is still to be answered the server answers Cancel with the same
    /// id at once and nothing else for it; a call already answered is left alone. No body.
    /// </summary>
    Cancel = 4,

    /// <summary>
    /// Either way: up to 64 KiB of a Stream the call carries (WCF's streamed transfer: the stream is
    /// the whole request or reply, whose own frame has an empty body), raw bytes with the call's id.
    /// </summary>
    StreamData = 5,

    /// <summary>Either way: the call's stream ended (an Error frame ends it with a failure instead).</summary>
    StreamEnd = 6,

    /// <summary>Client to server: which operation ids this connection uses for a contract (<see cref="BindBody"/>).</summary>
    Bind = 9,

    /// <summary>Server to client: the ids, in the order asked (<see cref="BoundBody"/>).</summary>
    Bound = 10,

    /// <summary>
    /// Client to server: subscribe this connection to a topic (a <c>SubscribeRequest</c>); answered
    /// with a Reply (<c>SubscribeReply</c>) or an Error. Every publication accepted afterwards comes
    /// as a <see cref="Notification"/> frame on this connection.
    /// </summary>
    Subscribe = 11,

    /// <summary>Client to server: end this connection's subscription to a topic; its last Notification frame comes before the Reply.</summary>
    Unsubscribe = 12,

    /// <summary>Client to server: publish a <c>Notification</c> to every subscriber of its topic, on every binding; answered with a <c>PublishReply</c>.</summary>
    Publish = 13,

    /// <summary>Server to client, call id 0: a publication to a topic the connection subscribes to (a <c>Notification</c>, with its sequence number).</summary>
    Notification = 14,

    /// <summary>Server to client, call id 0: the server ended a subscription (<see cref="SubscriptionEndedBody"/>: the subscriber fell too far behind).</summary>
    SubscriptionEnded = 15,
}
