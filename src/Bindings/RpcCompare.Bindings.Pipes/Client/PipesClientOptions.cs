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
}
