using System.Globalization;

namespace RpcCompare.Bindings.Limits;

/// <summary>
/// How many threads the process may have, for a binding that serves each connection on a thread of
/// its own (fast-tcp and fast-uds). A container's tasks are capped by its pids cgroup (podman gives
/// 2,048 unless told): past it pthread_create fails, and the .NET runtime ends the process
/// ("Out of memory.", exit 139) instead of throwing. Three fleet replicas died so at about 2,700
/// fast-tcp subscribers each. So such a binding takes no more connections than the task limit
/// allows, with a share of it left to the rest of the host, as <see cref="OpenFileLimit"/> does for files.
/// </summary>
public static class TaskLimit
{
    /// <summary>The <see cref="Reading.Source"/> when RLIMIT_NPROC is the lower limit.</summary>
    public const string NprocSource = "RLIMIT_NPROC";

    private const string ProcessesRow = "Max processes";

    /// <summary>What limits the tasks and how many it allows, for a log line.</summary>
    public readonly record struct Reading(long Tasks, string Source);

    /// <summary>
    /// The smallest of the process's task limits: its pids cgroup's pids.max and those of its
    /// ancestors the mount shows (cgroup v1 or v2, found through /proc/self/mountinfo, so inside a
    /// container too, where the container's own cgroup is the top), and RLIMIT_NPROC unless the real
    /// user is root (the limit counts the user's tasks in every process, so it is an upper bound; root
    /// in a user namespace is bound by it but read as exempt). Null where none is set or none can be
    /// read (not Linux).
    /// </summary>
    public static Reading? Read(string proc = "/proc/self")
    {
        var cgroup = ReadCgroup(Path.Combine(proc, "mountinfo"), Path.Combine(proc, "cgroup"));
        var nproc = IsRoot(Path.Combine(proc, "status")) ? null : ProcessLimits.ReadSoftLimit(Path.Combine(proc, "limits"), ProcessesRow);
        return (cgroup, nproc) switch
        {
            ({ } c, { } n) => n < c.Tasks ? new Reading(n, NprocSource) : c,
            ({ } c, null) => c,
            (null, { } n) => new Reading(n, NprocSource),
            _ => null,
        };
    }

    /// <summary>
    /// The connections a thread-per-connection binding may hold under <paramref name="tasks"/>: the
    /// limit less a reserve for the host's own threads (the thread pool grows under blocking work,
    /// a health check runs beside it), a tenth of it and at least 512, at most half. 1,536 of
    /// podman's 2,048; 27,000 of 30,000. Unbounded when the limit is unknown.
    /// </summary>
    public static int ConnectionsWithAThreadEach(long? tasks) => ProcessLimits.LessReserve(tasks, 512);

    /// <summary>The pids.max of the process's pids cgroup or the lowest of its ancestors', under the mount that shows it.</summary>
    private static Reading? ReadCgroup(string mountInfoFile, string cgroupFile)
    {
        try
        {
            // The lowest over every mount that shows the process's cgroup (a hierarchy may be mounted twice).
            Reading? lowest = null;
            foreach (var (directory, version) in PidsDirectories(File.ReadAllLines(mountInfoFile), File.ReadAllLines(cgroupFile)))
            {
                if (LowestPidsMax(directory.Mount, directory.Own) is { } tasks && (lowest is null || tasks < lowest.Value.Tasks))
                {
                    lowest = new Reading(tasks, $"the pids cgroup's pids.max ({version})");
                }
            }

            return lowest;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    // Per pids hierarchy (v1's pids controller, else v2's unified one): the directory its mount shows
    // the process's own cgroup at. A mount's root is the cgroup it shows at its mount point: "/" on a
    // machine, the container's own cgroup inside one (the process's path in /proc/self/cgroup is then
    // that root or below it).
    private static IEnumerable<((string Mount, string Own) Directory, string Version)> PidsDirectories(string[] mountInfo, string[] cgroups)
    {
        foreach (var line in mountInfo)
        {
            // "36 25 0:31 /root /sys/fs/cgroup/pids rw,... shared:14 - cgroup cgroup rw,pids"
            var separator = line.IndexOf(" - ", StringComparison.Ordinal);
            if (separator < 0)
            {
                continue;
            }

            var fields = line[..separator].Split(' ');
            var tail = line[(separator + 3)..].Split(' ');
            if (fields.Length < 5 || tail.Length < 1)
            {
                continue;
            }

            var (root, mountPoint) = (Unescape(fields[3]), Unescape(fields[4]));
            var isV1Pids = tail[0] == "cgroup" && tail.Length >= 3 && tail[2].Split(',').Contains("pids");
            var isV2 = tail[0] == "cgroup2";
            var own = cgroups.Select(static c => c.Split(':', 3)).FirstOrDefault(c => c.Length == 3 && (isV1Pids ? c[1].Split(',').Contains("pids") : isV2 && c[0] == "0" && c[1].Length == 0));
            if (own is null)
            {
                continue;
            }

            var path = own[2];
            var relative = root == "/" ? path : path == root || path.StartsWith(root + "/", StringComparison.Ordinal) ? path[root.Length..] : null;
            if (relative is not null)
            {
                yield return ((mountPoint, Path.Join(mountPoint, relative.TrimStart('/'))), isV1Pids ? "cgroup v1" : "cgroup v2");
            }
        }
    }

    // pids.max from the process's own cgroup up to the mount point: a parent's limit counts for its children too.
    private static long? LowestPidsMax(string mountPoint, string own)
    {
        long? lowest = null;
        var top = Path.TrimEndingDirectorySeparator(mountPoint);
        for (var directory = Path.TrimEndingDirectorySeparator(own); directory is not null && directory.StartsWith(top, StringComparison.Ordinal); directory = Path.GetDirectoryName(directory))
        {
            var file = Path.Combine(directory, "pids.max");
            if (File.Exists(file) && long.TryParse(File.ReadAllText(file).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var max))
            {
                lowest = lowest is { } l ? Math.Min(l, max) : max; // "max" (no limit) does not parse
            }

            if (directory.Length == top.Length)
            {
                break;
            }
        }

        return lowest;
    }

    // RLIMIT_NPROC does not bind a process whose real user is root: /proc/self/status's first Uid field.
    private static bool IsRoot(string statusFile)
    {
        try
        {
            var uid = File.ReadLines(statusFile).FirstOrDefault(static line => line.StartsWith("Uid:", StringComparison.Ordinal))?
                .Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
            return uid is [_, var real, ..] && real == "0";
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    // mountinfo escapes space, tab, newline and backslash as octal (\040).
    private static string Unescape(string field) => field.Contains('\\', StringComparison.Ordinal)
        ? System.Text.RegularExpressions.Regex.Replace(field, @"\\([0-7]{3})", static m => ((char)Convert.ToInt32(m.Groups[1].Value, 8)).ToString())
        : field;
}
