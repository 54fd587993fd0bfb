using System.Globalization;

namespace RpcCompare.Runner.Hosting;

/// <summary>
/// CPU time used so far by another process, from Linux's <c>/proc/&lt;pid&gt;/stat</c> (user + system,
/// every thread, in clock ticks of 10 ms): over a trial of a second, within a few percent.
/// </summary>
internal static class ProcessCpu
{
    // USER_HZ: fixed at 100 on Linux for every architecture .NET runs on (sysconf(_SC_CLK_TCK)).
    private const double TicksPerSecond = 100;

    /// <summary>The process's CPU time so far; null when it cannot be read (not Linux, the process is gone).</summary>
    public static TimeSpan? Read(int processId)
    {
        string stat;
        try
        {
            stat = File.ReadAllText($"/proc/{processId}/stat");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        return Parse(stat);
    }

    /// <summary>utime + stime (fields 14 and 15) of a stat line; the command name (field 2) may hold spaces and parentheses, so fields are counted from its last ')'.</summary>
    public static TimeSpan? Parse(string stat)
    {
        var end = stat.LastIndexOf(')');
        if (end < 0)
        {
            return null;
        }

        // After ") " come field 3 (state) onwards: utime is the 12th of them, stime the 13th.
        var fields = stat[(end + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length < 13
            || !long.TryParse(fields[11], NumberStyles.None, CultureInfo.InvariantCulture, out var user)
            || !long.TryParse(fields[12], NumberStyles.None, CultureInfo.InvariantCulture, out var system))
        {
            return null;
        }

        return TimeSpan.FromSeconds((user + system) / TicksPerSecond);
    }
}
