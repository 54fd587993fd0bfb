namespace RpcCompare.Bindings.Limits;

/// <summary>
/// How many connections the host's bindings take when their MaxConnections is not set. Each
/// connection is a file descriptor, and a process that has none left cannot accept, open a data
/// file or load an assembly: on a machine with a 20,000-file limit, a host that reached it under a
/// flood of idle connections was ended by the .NET runtime ("Out of memory."), every binding with
/// it. So the bindings together stay below the process's open-file limit, with a share of it left
/// to everything else in the host.
/// </summary>
public static class OpenFileLimit
{
    private const string OpenFilesRow = "Max open files";

    /// <summary>The process's soft limit on open files, from /proc/self/limits; null where it cannot be read (not Linux) or is unlimited.</summary>
    public static long? ReadSoftLimit(string limitsFile = "/proc/self/limits") => ProcessLimits.ReadSoftLimit(limitsFile, OpenFilesRow);

    /// <summary>
    /// The connections all bindings together may hold: the soft limit less a tenth of it (at least
    /// 1,000 files, at most half), 18,000 of 20,000 and 512 of 1,024. Unbounded when the limit is unknown.
    /// </summary>
    public static int DefaultMaxConnections(long? softLimit) => ProcessLimits.LessReserve(softLimit, 1_000);

    /// <summary>
    /// One binding's equal share of <see cref="DefaultMaxConnections"/> when <paramref name="bindings"/>
    /// bindings listen in one process (3,000 each for six bindings under 20,000 files), so that their
    /// limits added up still leave the reserve. At least 1.
    /// </summary>
    public static int ShareOf(long? softLimit, int bindings)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(bindings, 1);
        var total = DefaultMaxConnections(softLimit);
        return total == int.MaxValue ? int.MaxValue : Math.Max(1, total / bindings);
    }
}
