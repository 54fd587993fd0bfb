using System.Diagnostics;

namespace RpcCompare.Container.Tests;

/// <summary>Runs podman (with the adjustments these machines need) and the repository's container scripts.</summary>
internal static class Podman
{
    private static readonly string[] s_global = ["--runtime", "/usr/sbin/runc", "--cgroup-manager=cgroupfs"];

    public static string RepositoryRoot { get; } = FindRepositoryRoot();

    public static Task<(int ExitCode, string Output)> RunAsync(params string[] arguments) =>
        RunProcessAsync("podman", [.. s_global, .. arguments], TimeSpan.FromMinutes(2));

    /// <summary>docker/offline.sh: installs podman if needed, builds the local base images and the host image.</summary>
    public static Task<(int ExitCode, string Output)> BuildHostImageAsync() =>
        RunProcessAsync("bash", [Path.Combine(RepositoryRoot, "docker", "offline.sh"), "build"], TimeSpan.FromMinutes(20));

    private static async Task<(int ExitCode, string Output)> RunProcessAsync(string program, string[] arguments, TimeSpan timeout)
    {
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = RepositoryRoot };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{program} {string.Join(' ', arguments)} did not finish within {timeout}.");
        }

        return (process.ExitCode, (await output) + (await error));
    }

    private static string FindRepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "RpcCompare.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("RpcCompare.sln not found above the test's folder.");
    }
}
