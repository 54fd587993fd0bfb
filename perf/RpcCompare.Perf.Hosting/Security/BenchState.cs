namespace RpcCompare.Perf.Hosting.Security;

/// <summary>
/// Where the measuring tools keep what outlives a run (their TLS certificates): beside the host's
/// state, in the user's own directory. Named for the runner, which made it first.
/// </summary>
public static class BenchState
{
    public static string Directory =>
        Path.Combine(
            Environment.GetEnvironmentVariable("XDG_STATE_HOME") is { Length: > 0 } xdg ? xdg : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".local", "state"),
            "rpccompare", "runner");
}
