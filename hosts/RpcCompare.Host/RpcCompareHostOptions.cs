namespace RpcCompare.Host;

/// <summary>The host's own settings (section "RpcCompare"); each binding has its own section.</summary>
internal sealed class RpcCompareHostOptions
{
    public const string SectionName = "RpcCompare";

    /// <summary>Comma-separated binding names, or "all" for every binding of this build. Defaults to "all".</summary>
    public string Bindings { get; set; } = "all";

    /// <summary>Where to write the binding-to-address JSON once every listener is ready. Defaults to none.</summary>
    public string? EndpointsFile { get; set; }

    /// <summary>
    /// Directory for the Unix socket files. Defaults to null: a fresh 0700 directory under the
    /// temp directory, removed on shutdown.
    /// </summary>
    public string? SocketDirectory { get; set; }
}
