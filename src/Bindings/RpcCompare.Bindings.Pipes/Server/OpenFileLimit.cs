using System.Globalization;

namespace RpcCompare.Bindings.Pipes.Server;

/// <summary>
/// How many connections the pipes server takes when Pipes:MaxConnections is not set. Each
/// connection is a file descriptor, and a process that has none left cannot accept, open a data
/// file or load an assembly: on a machine with a 20,000-file limit, a host that reached it while
/// 20,000 subscribers connected was ended by the .NET runtime ("Out of memory."). So the server
/// leaves a share of the process's open-file limit to everything else in the host.
/// </summary>
internal static class OpenFileLimit
{
    private const string OpenFilesRow = "Max open files";

    /// <summary>The process's soft limit on open files, from /proc/self/limits; null where it cannot be read (not Linux) or is unlimited.</summary>
    public static long? ReadSoftLimit(string limitsFile = "/proc/self/limits")
    {
        try
        {
            var row = File.ReadLines(limitsFile).FirstOrDefault(line => line.StartsWith(OpenFilesRow, StringComparison.Ordinal));
            var fields = row?[OpenFilesRow.Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            return fields is [var soft, ..] && long.TryParse(soft, NumberStyles.None, CultureInfo.InvariantCulture, out var limit) ? limit : null;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// The soft limit less a tenth of it (at least 1,000 files, at most half): 18,000 connections
    /// of 20,000 files, 512 of 1,024. Unbounded when the limit is unknown.
    /// </summary>
    public static int DefaultMaxConnections(long? softLimit)
    {
        if (softLimit is not { } limit || limit >= int.MaxValue)
        {
            return int.MaxValue;
        }

        var reserve = Math.Min(Math.Max(1_000, limit / 10), limit / 2);
        return (int)Math.Max(1, limit - reserve);
    }
}
