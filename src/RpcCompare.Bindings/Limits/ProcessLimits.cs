using System.Globalization;

namespace RpcCompare.Bindings.Limits;

/// <summary>What the host's connection limits share: reading /proc/self/limits, and keeping a reserve of a limit.</summary>
internal static class ProcessLimits
{
    /// <summary>The soft limit of the row named <paramref name="row"/> ("Max open files"); null where the file cannot be read (not Linux) or the limit is unlimited.</summary>
    public static long? ReadSoftLimit(string limitsFile, string row)
    {
        try
        {
            var line = File.ReadLines(limitsFile).FirstOrDefault(l => l.StartsWith(row, StringComparison.Ordinal));
            var fields = line?[row.Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            return fields is [var soft, ..] && long.TryParse(soft, NumberStyles.None, CultureInfo.InvariantCulture, out var limit) ? limit : null;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// <paramref name="limit"/> less a reserve for the rest of the host: a tenth of it and at least
    /// <paramref name="minimumReserve"/>, at most half; at least 1. Unbounded when the limit is unknown.
    /// </summary>
    public static int LessReserve(long? limit, long minimumReserve)
    {
        if (limit is not { } value || value >= int.MaxValue)
        {
            return int.MaxValue;
        }

        var reserve = Math.Min(Math.Max(minimumReserve, value / 10), value / 2);
        return (int)Math.Max(1, value - reserve);
    }
}
