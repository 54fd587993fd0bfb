using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Grpc.Client;

/// <summary>Client-side settings of the gRPC bindings.</summary>
public sealed class GrpcClientOptions
{
    /// <summary>
    /// Largest request sent or reply accepted, in bytes. Defaults to 16 MiB, the server's default.
    /// A larger request fails with QuotaExceeded before anything is sent.
    /// </summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>How long to wait for a connection. Defaults to 5 seconds.</summary>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Whether a channel opens another HTTP/2 connection once one carries as many concurrent
    /// calls as the server allows (Kestrel: 100 streams), instead of queueing further calls.
    /// Defaults to true; SocketsHttpHandler's own default is false. The runner's tuning suite
    /// measures both.
    /// </summary>
    public bool EnableMultipleHttp2Connections { get; set; } = true;

    /// <summary>What makes the contract proxies; see <see cref="GrpcEngine"/>. The server must use the same engine.</summary>
    public GrpcEngine Engine { get; set; } = GrpcEngine.ContractModel;

    /// <summary>
    /// How the server's certificate is trusted when the address is https:// (grpc-tcp over TLS).
    /// Defaults to null: the system's trust and host-name checks.
    /// </summary>
    public ClientTlsOptions? Tls { get; set; }
}
