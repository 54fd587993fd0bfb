using RpcCompare.Testing;

namespace RpcCompare.Container.Tests;

/// <summary>Runs podman (with the adjustments these machines need) and the repository's container scripts.</summary>
internal static class Podman
{
    private static readonly string[] s_global = ["--runtime", "/usr/sbin/runc", "--cgroup-manager=cgroupfs"];

    public static string RepositoryRoot => RepositoryPaths.Root;

    public static Task<(int ExitCode, string Output)> RunAsync(params string[] arguments) =>
        TestProcess.RunAsync("podman", [.. s_global, .. arguments], TimeSpan.FromMinutes(2), RepositoryRoot);

    /// <summary>docker/offline.sh: installs podman if needed, builds the local base images and the host image.</summary>
    public static Task<(int ExitCode, string Output)> BuildHostImageAsync() =>
        TestProcess.RunAsync("bash", [Path.Combine(RepositoryRoot, "docker", "offline.sh"), "build"], TimeSpan.FromMinutes(20), RepositoryRoot);
}
