using RpcCompare.Bindings.Limits;

namespace RpcCompare.Bindings.Grpc;

/// <summary>Settings shared by both gRPC bindings.</summary>
public abstract class GrpcBindingOptions : FrameworkConnectionOptions
{
    /// <summary>
    /// Largest request or reply message, in bytes, on both sides (MaxReceive/MaxSendMessageSize).
    /// Defaults to 16 MiB, room for the 10,000,000-byte payloads. Past it a call fails with
    /// ResourceExhausted, which clients map to QuotaExceeded.
    /// </summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>
    /// Concurrent HTTP/2 streams one connection may carry (Kestrel's limit). Defaults to 100,
    /// Kestrel's own default: a client multiplexing more long-lived subscriptions on one connection
    /// than this waits for a stream, unless its handler opens more connections.
    /// </summary>
    public int MaxStreamsPerConnection { get; set; } = 100;

    /// <summary>
    /// What builds the gRPC methods from the contracts; <see cref="GrpcEngine.ContractModel"/> by
    /// default. <see cref="GrpcEngine.ProtobufNetGrpc"/> is a comparison variant for the runner.
    /// </summary>
    public GrpcEngine Engine { get; set; } = GrpcEngine.ContractModel;
}
