using RpcCompare.Testing;

namespace RpcCompare.Container.Tests;

/// <summary>Runs podman (with the adjustments these machines need) and the repository's container scripts.</summary>
internal static class Podman
{
    /// <summary>Global podman arguments these machines need: runc (crun refuses hybrid cgroups) and cgroupfs.</summary>
    public static readonly string[] Global = ["--runtime", "/usr/sbin/runc", "--cgroup-manager=cgroupfs"];

    /// <summary>
    /// `podman run` limits at or below this machine's hard limits: podman's defaults are above them
    /// and runc fails to set them ("error setting rlimit type 7").
    /// </summary>
    public static readonly string[] Limits = ["--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"];

    public static string RepositoryRoot => RepositoryPaths.Root;

    public static Task<(int ExitCode, string Output)> RunAsync(params string[] arguments) =>
        RunAsync(TimeSpan.FromMinutes(2), arguments);

    public static Task<(int ExitCode, string Output)> RunAsync(TimeSpan timeout, params string[] arguments) =>
        TestProcess.RunAsync("podman", [.. Global, .. arguments], timeout, RepositoryRoot);

    /// <summary>docker/offline.sh: installs podman if needed, builds the local base images and then <paramref name="target"/>'s image (host, runner, node-client).</summary>
    public static Task<(int ExitCode, string Output)> BuildImageAsync(string target) =>
        TestProcess.RunAsync("bash", [Path.Combine(RepositoryRoot, "docker", "offline.sh"), "build", target], TimeSpan.FromMinutes(20), RepositoryRoot);
}
