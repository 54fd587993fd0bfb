using System.Diagnostics;

namespace RpcCompare.Load.Chaos;

/// <summary>
/// The user's command that kills one replica (--kill-command), run with /bin/sh -c: the load
/// command cannot know how a fleet is run (podman, Docker, processes), so it is told.
/// </summary>
internal static class KillCommand
{
    /// <summary>How long the command may take: killing a container or a process is quick.</summary>
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(30);

    /// <exception cref="InvalidOperationException">The command failed or did not end in time.</exception>
    public static async Task RunAsync(string command, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo("/bin/sh")
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add("-c");
        start.ArgumentList.Add(command);
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"--kill-command could not be started: {command}");
        var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var error = process.StandardError.ReadToEndAsync(cancellationToken);
        using var bound = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bound.CancelAfter(Bound);
        try
        {
            await process.WaitForExitAsync(bound.Token);
        }
        catch (OperationCanceledException)
        {
            // Too slow, or the run ended first: either way no command outlives it.
            try
            {
                process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
                // It ended meanwhile.
            }

            if (cancellationToken.IsCancellationRequested)
            {
                throw;
            }

            throw new InvalidOperationException($"--kill-command did not end within {Bound.TotalSeconds:0} s: {command}");
        }

        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"--kill-command exited with {process.ExitCode}: {command}\n{(await error).Trim()}{(await output).Trim()}");
        }
    }
}
