using System.Diagnostics;
using System.Globalization;

namespace RpcCompare.Testing;

/// <summary>Runs a program to its end for a test, bounded in time; a hang kills it and fails the test.</summary>
public static class TestProcess
{
    public static async Task<(int ExitCode, string Output)> RunAsync(string program, IEnumerable<string> arguments, TimeSpan timeout, string? workingDirectory = null, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        if (workingDirectory is not null)
        {
            start.WorkingDirectory = workingDirectory;
        }

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
            throw new TimeoutException($"{program} {string.Join(' ', start.ArgumentList)} did not finish within {timeout}.");
        }

        return (process.ExitCode, (await output) + (await error));
    }

    /// <summary>Sends SIGTERM, as a container runtime or service manager would.</summary>
    public static Task TerminateAsync(int processId) =>
        RunAsync("kill", ["-TERM", processId.ToString(CultureInfo.InvariantCulture)], TestTimeout.Default);
}
