using System.Diagnostics;

namespace RpcCompare.Perf.Reporting;

/// <summary>The commit a run measured, so the dashboard can tell which change made a figure move.</summary>
public static class SourceRevision
{
    /// <summary>
    /// "git describe --always --dirty" of the working directory's repository (a "-dirty" suffix
    /// when it had uncommitted changes), or null outside a repository or without git.
    /// </summary>
    public static string? Describe()
    {
        try
        {
            var start = new ProcessStartInfo("git", ["describe", "--always", "--dirty", "--abbrev=12"])
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            using var git = Process.Start(start);
            if (git is null)
            {
                return null;
            }

            var output = git.StandardOutput.ReadToEnd().Trim();
            git.StandardError.ReadToEnd();
            return git.WaitForExit(10_000) && git.ExitCode == 0 && output.Length > 0 ? output : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }
}
