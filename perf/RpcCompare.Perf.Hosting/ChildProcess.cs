using System.Diagnostics;
using System.Globalization;

namespace RpcCompare.Perf.Hosting;

/// <summary>The small programs a measuring tool runs to completion: the C compiler, the native floor, taskset, kill.</summary>
public static class ChildProcess
{
    /// <summary>Runs a program to its end; exit code -1 when the program does not exist.</summary>
    public static (int ExitCode, string Output) Run(string program, params string[] arguments)
    {
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        try
        {
            using var process = Process.Start(start)!;
            var error = process.StandardError.ReadToEndAsync();
            var output = process.StandardOutput.ReadToEnd();
            process.WaitForExit();
            return (process.ExitCode, output + error.Result);
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return (-1, "");
        }
    }

    /// <summary>Sends SIGTERM, as a service manager or container runtime would, so the process cleans up after itself.</summary>
    public static void Terminate(int processId) => Run("kill", "-TERM", processId.ToString(CultureInfo.InvariantCulture));
}
