using RpcCompare.Bindings.Security;

namespace RpcCompare.Client;

/// <summary>Client-side settings every binding's client takes, whatever its framework.</summary>
public sealed class RpcClientOptions
{
    /// <summary>
    /// Largest request sent or reply accepted, in bytes. Defaults to 16 MiB, the host's default.
    /// Past it a call fails with QuotaExceeded saying it was the client's limit.
    /// </summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>How long to wait for a connection. Defaults to 5 seconds.</summary>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// How TLS servers are trusted (a pinned thumbprint, or the system's roots). Setting it turns
    /// TLS on for wcf-nettcp and fast-tcp; wcf-http and grpc-tcp use TLS for an https:// address. Defaults to
    /// null: plaintext net.tcp and tcp. <see cref="Bindings.HostEndpoints.ClientTls"/> gives what a host's endpoints file says.
    /// </summary>
    public ClientTlsOptions? Tls { get; set; }
}
