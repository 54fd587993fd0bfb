namespace RpcCompare.Bindings.Grpc.Push;

/// <summary>How a gRPC push client lays its subscriptions onto HTTP/2 connections.</summary>
public static class GrpcPushVariants
{
    /// <summary>Each push client has a channel, so a connection, of its own: one subscriber, one connection.</summary>
    public const string Stream = "stream";

    /// <summary>
    /// Every push client of a provider and address shares one channel held to one HTTP/2
    /// connection (EnableMultipleHttp2Connections off): subscriptions are streams multiplexed on
    /// it, and past the server's concurrent-stream limit (Kestrel: 100) a subscription waits.
    /// </summary>
    public const string Multiplexed = "multiplexed";

    public static IReadOnlyList<string> Variants { get; } = [Stream, Multiplexed];
}
