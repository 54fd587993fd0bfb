namespace RpcCompare.Runner.Hosting;

/// <summary>Where the runner keeps what outlives a run (its TLS variant's certificate): beside the host's state, in the user's own directory.</summary>
internal static class RunnerState
{
    public static string Directory =>
        Path.Combine(
            Environment.GetEnvironmentVariable("XDG_STATE_HOME") is { Length: > 0 } xdg ? xdg : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".local", "state"),
            "rpccompare", "runner");
}
