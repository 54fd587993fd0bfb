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
}
