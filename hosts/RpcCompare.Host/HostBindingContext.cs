namespace RpcCompare.Host;

/// <summary>
/// What every binding's registration takes from the host: configuration, socket directory, the
/// shared settings (message size, listen address, and each binding's connection limit unless its
/// own section sets one).
/// </summary>
internal sealed record HostBindingContext(IConfiguration Configuration, SocketDirectory Sockets, int MaxMessageSize, string? ListenAddress, int MaxConnectionsPerBinding)
{
    /// <summary>The configured socket path, or <paramref name="fileName"/> in the host's private socket directory.</summary>
    public string SocketPath(string? configured, string fileName) => string.IsNullOrEmpty(configured) ? Sockets.PathFor(fileName) : configured;
}
