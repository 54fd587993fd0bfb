namespace RpcCompare.Load.Chaos;

/// <summary>What --chaos kills.</summary>
internal enum ChaosTarget
{
    /// <summary>kill-host: the host the load command started, restarted at once on the same addresses.</summary>
    Host,

    /// <summary>kill-replica: one replica of a fleet behind a balancer (--host), by a command of the user's; not restarted.</summary>
    Replica,
}

/// <summary>How --chaos runs.</summary>
/// <param name="Users">Virtual users per binding, each writing in a closed loop.</param>
/// <param name="Duration">The whole load, kill and recovery included.</param>
/// <param name="KillAfter">When into the load the host is killed.</param>
/// <param name="ConnectTimeout">The clients' connect timeout: no call may take longer than this plus <see cref="HangMargin"/>.</param>
internal sealed record ChaosSettings(int Users, TimeSpan Duration, TimeSpan KillAfter, TimeSpan ConnectTimeout)
{
    /// <summary>What a client does after a failed call before its next: a pause, as a real client's retry would, so a dead host is not hammered.</summary>
    public static TimeSpan RetryPause { get; } = TimeSpan.FromMilliseconds(20);

    /// <summary>Slack over the connect timeout before a call counts as hung.</summary>
    public static TimeSpan HangMargin { get; } = TimeSpan.FromSeconds(5);

    /// <summary>Writes each binding's file has room for (16 bytes each, sparse).</summary>
    public const int LedgerCapacity = 4_000_000;

    public static ChaosSettings Default { get; } = new(4, TimeSpan.FromSeconds(20), TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(5));

    public static ChaosSettings Quick { get; } = new(2, TimeSpan.FromSeconds(8), TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(5));

    public ChaosTarget Target { get; init; } = ChaosTarget.Host;

    /// <summary>kill-replica: the shell command that kills one replica (e.g. <c>podman kill -s KILL rpccompare-fleet_host-2_1</c>), run with /bin/sh -c.</summary>
    public string? KillCommand { get; init; }

    /// <summary>kill-replica: the fleet's shared data root as this machine sees it, where the written files are read back.</summary>
    public string? DataRoot { get; init; }

    /// <summary>kill-replica: push subscribers per binding that has push, each connected through the balancer.</summary>
    public int SubscribersPerBinding { get; init; } = DefaultSubscribersPerBinding;

    public const int DefaultSubscribersPerBinding = 3;
}
