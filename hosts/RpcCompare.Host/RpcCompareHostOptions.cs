namespace RpcCompare.Host;

/// <summary>The host's own settings (section "RpcCompare"); each binding has its own section.</summary>
internal sealed class RpcCompareHostOptions
{
    public const string SectionName = "RpcCompare";

    /// <summary>Comma-separated binding names, or "all" for every binding of this build. Defaults to "all".</summary>
    public string Bindings { get; set; } = "all";

    /// <summary>
    /// Comma-separated short names of RpcCompare's own services to serve (FileService,
    /// CallShapeService, PayloadService, FileTransferService), "all", or "none" (a host of a team's
    /// contracts only). Defaults to "all".
    /// </summary>
    public string Services { get; set; } = "all";

    /// <summary>
    /// Path of a team's service assembly: every public [ServiceContract] interface in it is served,
    /// on every binding, with the one public class in it implementing it. Defaults to none.
    /// </summary>
    public string? Contracts { get; set; }

    /// <summary>Where to write the binding-to-address JSON once every listener is ready. Defaults to none.</summary>
    public string? EndpointsFile { get; set; }

    /// <summary>
    /// Directory for the Unix socket files. Defaults to null: a fresh 0700 directory under the
    /// temp directory, removed on shutdown.
    /// </summary>
    public string? SocketDirectory { get; set; }

    /// <summary>
    /// Largest request or reply, in bytes, on every binding (each framework's message-size quotas
    /// are set from it). Defaults to 16 MiB, room for the 10,000,000-byte payloads. Past it a call
    /// fails with QuotaExceeded.
    /// </summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>
    /// Connection limit of every binding whose own section sets none (e.g. WcfNetTcp:MaxConnections).
    /// Defaults to null: the process's open-file limit less a tenth, shared equally by the bindings
    /// served (3,000 each for six bindings under 20,000 files), so their limits together leave the
    /// host the files it needs. The runner sets the whole budget, measuring one binding at a time.
    /// </summary>
    public int? MaxConnectionsPerBinding { get; set; }

    /// <summary>
    /// IP address every TCP binding listens on, unless its own section says otherwise. Defaults to
    /// null: each binding's default, 127.0.0.1. The container image sets 0.0.0.0.
    /// </summary>
    public string? ListenAddress { get; set; }

    /// <summary>
    /// Host name written into the endpoints file for the TCP bindings, in place of the address
    /// they listen on. Defaults to null: the listen address (127.0.0.1 for 0.0.0.0). Compose sets
    /// the service name, so clients in other containers of its network reach the host by name.
    /// </summary>
    public string? AdvertisedHost { get; set; }

    /// <summary>
    /// Where the host keeps what outlives one run (its self-signed TLS certificate). Defaults to
    /// null: $XDG_STATE_HOME/rpccompare, else ~/.local/state/rpccompare.
    /// </summary>
    public string? StateDirectory { get; set; }

    /// <summary>The state directory in force: <see cref="StateDirectory"/> or the XDG default.</summary>
    public string EffectiveStateDirectory =>
        StateDirectory is { Length: > 0 } configured ? Path.GetFullPath(configured)
        : Environment.GetEnvironmentVariable("XDG_STATE_HOME") is { Length: > 0 } xdg ? Path.Combine(xdg, "rpccompare")
        : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".local", "state", "rpccompare");

    /// <summary>
    /// User ids the Unix-socket bindings serve, comma-separated, or "any". Defaults to null: the
    /// host's own user and root. A peer (SO_PEERCRED) not on the list is closed at once and counted.
    /// </summary>
    public string? AllowedUsers { get; set; }
}
