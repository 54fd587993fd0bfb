namespace RpcCompare.Bindings.Fast;

/// <summary>
/// Server-side settings of fast-tcp (configuration section <see cref="SectionName"/>): the fast
/// binding's frames over TCP, in TLS when the host's TCP bindings use it (--tls), else in
/// plaintext, on loopback only unless the host allows plaintext beyond it (--allow-insecure)
/// (docs/bindings.md).
/// </summary>
public sealed class FastTcpBindingOptions : FastBindingOptions
{
    public const string SectionName = "FastTcp";

    /// <summary>TCP port. Defaults to 0: a free port, published in the endpoints file.</summary>
    public int Port { get; set; }

    /// <summary>IP address to listen on. Defaults to 127.0.0.1: nothing outside this machine reaches the binding.</summary>
    public string ListenAddress { get; set; } = "127.0.0.1";

    /// <summary>
    /// Under TLS, how long a new connection's handshake may take, counted as a whole (a client
    /// trickling it byte by byte is as stuck as a silent one); a slower client is disconnected.
    /// Defaults to 30 seconds, as the Kestrel bindings' HandshakeTimeout.
    /// </summary>
    public TimeSpan HandshakeTimeout { get; set; } = Limits.FrameworkConnectionOptions.DefaultHandshakeTimeout;

    internal override string Section => SectionName;

    internal override void ThrowIfInvalidFast()
    {
        if (Port is < 0 or > 65535)
        {
            throw new InvalidOperationException($"{SectionName}:Port must be from 0 (a free port) to 65535; got {Port}.");
        }

        if (HandshakeTimeout <= TimeSpan.Zero)
        {
            throw new InvalidOperationException($"{SectionName}:HandshakeTimeout must be positive; got {HandshakeTimeout}.");
        }

        base.ThrowIfInvalidFast();
    }
}
