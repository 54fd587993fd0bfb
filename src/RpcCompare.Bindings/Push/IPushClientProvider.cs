namespace RpcCompare.Bindings.Push;

/// <summary>A binding client that can subscribe to the server's topics (<c>RpcCompare.Push.TopicRegistry</c>).</summary>
public interface IPushClientProvider
{
    /// <summary>
    /// A push client on a connection of its own: every subscription made through it shares that
    /// connection (for gRPC, streams on one HTTP/2 connection). The caller disposes it.
    /// </summary>
    IPushClient CreatePushClient(string address);
}
