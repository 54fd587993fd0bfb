namespace RpcCompare.Bindings.Push;

/// <summary>A binding client that can subscribe to the server's topics (<c>RpcCompare.Push.TopicRegistry</c>).</summary>
public interface IPushClientProvider
{
    /// <summary>
    /// The ways this binding can deliver notifications, the default first: "stream" and
    /// "multiplexed" (gRPC), "typed" and "pre-serialized" (WCF duplex), "long-poll" (HTTP), "frames" (pipes, fast-uds).
    /// </summary>
    IReadOnlyList<string> PushVariants { get; }

    /// <summary>
    /// A push client on a connection of its own, except where the variant says otherwise (gRPC's
    /// "multiplexed" clients of one address share one): every subscription made through it shares
    /// its connection (for gRPC, streams on one HTTP/2 connection). The caller disposes it.
    /// </summary>
    /// <param name="address">The binding's address, as for contract proxies.</param>
    /// <param name="variant">One of <see cref="PushVariants"/>; null for the default.</param>
    IPushClient CreatePushClient(string address, string? variant = null);
}
