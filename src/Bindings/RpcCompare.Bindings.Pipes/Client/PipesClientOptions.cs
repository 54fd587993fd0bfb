namespace RpcCompare.Bindings.Pipes.Client;

/// <summary>Client-side settings of the raw pipe baseline.</summary>
public sealed class PipesClientOptions
{
    /// <summary>
    /// Largest request this client sends or reply it accepts. Defaults to 16 MiB, the server's
    /// default. A larger request fails with QuotaExceeded before anything is sent.
    /// </summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>How long to wait for the server to accept a connection. Defaults to 5 seconds.</summary>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// A connection left idle at least this long is checked (a non-blocking poll) before it is reused,
    /// and replaced if the server closed it (Pipes:IdleTimeout). Defaults to 1 second: back-to-back
    /// calls skip the check, and the server's idle timeout is minutes.
    /// </summary>
    public TimeSpan IdleCheckAfter { get; set; } = TimeSpan.FromSeconds(1);
}
