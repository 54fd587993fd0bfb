namespace RpcCompare.Host;

/// <summary>What every binding's registration takes from the host: configuration, socket directory, the shared settings.</summary>
internal sealed record HostBindingContext(IConfiguration Configuration, SocketDirectory Sockets, int MaxMessageSize, string? ListenAddress)
{
    /// <summary>The configured socket path, or <paramref name="fileName"/> in the host's private socket directory.</summary>
    public string SocketPath(string? configured, string fileName) => string.IsNullOrEmpty(configured) ? Sockets.PathFor(fileName) : configured;
}
