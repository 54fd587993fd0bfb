using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>Client-side settings of the WCF bindings.</summary>
public sealed class WcfClientOptions
{
    /// <summary>
    /// Largest reply accepted, in encoded bytes (MaxReceivedMessageSize and reader quotas).
    /// Defaults to 16 MiB, the server's default. The WCF client does not check what it sends:
    /// a request over the server's limit is refused by the server.
    /// </summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>Largest Stream result accepted from a contract with streamed operations. Defaults to 4 GiB, the server's default.</summary>
    public long MaxStreamSize { get; set; } = WcfBindingOptions.DefaultMaxStreamSize;

    /// <summary>How long to wait for a connection (OpenTimeout). Defaults to 5 seconds.</summary>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// How long a wcf-http long poll asks the server to wait for notifications before returning
    /// empty. Defaults to 20 seconds; the server caps it (WcfHttp:LongPollMaxWait).
    /// </summary>
    public TimeSpan LongPollWait { get; set; } = TimeSpan.FromSeconds(20);

    /// <summary>
    /// How the server's certificate is trusted; setting it turns TLS on for wcf-nettcp (wcf-http
    /// uses TLS for an https:// address). Defaults to null: plaintext net.tcp, system trust for https.
    /// </summary>
    public ClientTlsOptions? Tls { get; set; }
}
