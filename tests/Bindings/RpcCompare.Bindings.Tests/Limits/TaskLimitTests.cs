using RpcCompare.Bindings.Limits;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Tests.Limits;

/// <summary>
/// The task limit read from a made-up /proc/self and cgroup tree: the layouts of a podman container
/// on cgroup v1 (this machine's), of a machine on cgroup v2, and of a machine with no limit.
/// </summary>
public sealed class TaskLimitTests : IDisposable
{
    private const string Container = "/libpod_parent/libpod-275a2b82";
    private readonly TemporaryDirectory _directory = new();

    private string Proc => _directory.PathFor("proc");

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void InAPodmanContainerOnCgroupV1_TheMountShowsTheContainersOwnCgroup()
    {
        // The container sees its own cgroup at the mount point, while /proc/self/cgroup gives the machine's path.
        var pids = Cgroup("pids", ("pids.max", "2048"));
        WriteProc(
            mountInfo: [$"1200 1190 0:31 {Container} {pids} ro,nosuid - cgroup cgroup rw,pids", $"1201 1190 0:32 {Container} {Cgroup("memory")} ro - cgroup cgroup rw,memory"],
            cgroups: [$"8:pids:{Container}", $"4:memory:{Container}", $"0::{Container}"],
            uid: 1654, nprocSoft: "30000");

        Assert.Equal(new TaskLimit.Reading(2_048, "the pids cgroup's pids.max (cgroup v1)"), TaskLimit.Read(Proc));
    }

    [Fact]
    public void AHierarchyMountedTwice_GivesItsLowestLimit()
    {
        var machine = Cgroup("pids-machine");
        Directory.CreateDirectory(Path.Combine(machine, "libpod_parent", "libpod-275a2b82"));
        File.WriteAllText(Path.Combine(machine, "libpod_parent", "pids.max"), "900\n");
        File.WriteAllText(Path.Combine(machine, "libpod_parent", "libpod-275a2b82", "pids.max"), "2048\n");
        var own = Cgroup("pids-own", ("pids.max", "2048"));
        WriteProc(
            mountInfo: [$"1200 1190 0:31 {Container} {own} rw - cgroup cgroup rw,pids", $"1300 1190 0:31 / {machine} rw - cgroup cgroup rw,pids"],
            cgroups: [$"8:pids:{Container}"], uid: 0, nprocSoft: "unlimited");

        // The container's own mount shows 2,048; the machine's shows the parent's 900 above it.
        Assert.Equal(900, TaskLimit.Read(Proc)?.Tasks);
    }

    [Fact]
    public void OnCgroupV2_AnAncestorsLowerLimitCounts()
    {
        var root = Cgroup("unified");
        Directory.CreateDirectory(Path.Combine(root, "user.slice", "session-4.scope"));
        File.WriteAllText(Path.Combine(root, "user.slice", "pids.max"), "700\n");
        File.WriteAllText(Path.Combine(root, "user.slice", "session-4.scope", "pids.max"), "max\n");
        WriteProc(mountInfo: [$"30 23 0:26 / {root} rw,nosuid - cgroup2 cgroup2 rw"], cgroups: ["0::/user.slice/session-4.scope"], uid: 0, nprocSoft: "100");

        // Root is not bound by RLIMIT_NPROC, so its 100 does not count.
        Assert.Equal(new TaskLimit.Reading(700, "the pids cgroup's pids.max (cgroup v2)"), TaskLimit.Read(Proc));
    }

    [Fact]
    public void ForAnotherUser_RlimitNprocCountsWhenItIsLower()
    {
        var pids = Cgroup("pids");
        WriteProc(mountInfo: [$"1200 1190 0:31 / {pids} rw - cgroup cgroup rw,pids"], cgroups: ["8:pids:/"], uid: 1000, nprocSoft: "1500");

        // The machine's root cgroup has no pids.max: only the user's RLIMIT_NPROC limits.
        Assert.Equal(new TaskLimit.Reading(1_500, TaskLimit.NprocSource), TaskLimit.Read(Proc));
    }

    [Fact]
    public void WithNoLimitAnywhere_OrNoProc_TheLimitIsUnknown()
    {
        Assert.Null(TaskLimit.Read(Proc));

        var root = Cgroup("unified", ("pids.max", "max"));
        WriteProc(mountInfo: [$"30 23 0:26 / {root} rw - cgroup2 cgroup2 rw"], cgroups: ["0::/"], uid: 1000, nprocSoft: "unlimited");
        Assert.Null(TaskLimit.Read(Proc));
    }

    [Fact]
    public void AMountOfAnotherCgroup_IsNotTakenForTheProcesses()
    {
        // A mount whose root is not an ancestor of the process's cgroup does not show it.
        var pids = Cgroup("pids", ("pids.max", "64"));
        WriteProc(mountInfo: [$"1200 1190 0:31 /other {pids} rw - cgroup cgroup rw,pids"], cgroups: [$"8:pids:{Container}"], uid: 0, nprocSoft: "unlimited");

        Assert.Null(TaskLimit.Read(Proc));

        // Nor one whose root is a prefix of the process's path but not a directory above it.
        WriteProc(mountInfo: [$"1200 1190 0:31 {Container} {pids} rw - cgroup cgroup rw,pids"], cgroups: [$"8:pids:{Container}x/inner"], uid: 0, nprocSoft: "unlimited");
        Assert.Null(TaskLimit.Read(Proc));
    }

    [Theory]
    [InlineData(2_048L, 1_536)] // podman's default: 512 kept for the host's own threads
    [InlineData(30_000L, 27_000)]
    [InlineData(600L, 300)] // at most half kept
    [InlineData(1L, 1)]
    [InlineData(null, int.MaxValue)]
    public void ConnectionsWithAThreadEach_KeepATenthAtLeast512AtMostHalf(long? tasks, int expected)
    {
        Assert.Equal(expected, TaskLimit.ConnectionsWithAThreadEach(tasks));
    }

    private string Cgroup(string name, params (string File, string Text)[] files)
    {
        var directory = _directory.PathFor(Path.Combine("cgroup", name));
        Directory.CreateDirectory(directory);
        foreach (var (file, text) in files)
        {
            File.WriteAllText(Path.Combine(directory, file), text + "\n");
        }

        return directory;
    }

    private void WriteProc(string[] mountInfo, string[] cgroups, int uid, string nprocSoft)
    {
        Directory.CreateDirectory(Proc);
        File.WriteAllLines(Path.Combine(Proc, "mountinfo"), ["22 1 0:21 / / rw,relatime - overlay overlay rw", .. mountInfo]);
        File.WriteAllLines(Path.Combine(Proc, "cgroup"), cgroups);
        File.WriteAllLines(Path.Combine(Proc, "status"), ["Name:\tdotnet", $"Uid:\t{uid}\t{uid}\t{uid}\t{uid}", "Gid:\t0\t0\t0\t0"]);
        File.WriteAllLines(Path.Combine(Proc, "limits"),
        [
            "Limit                     Soft Limit           Hard Limit           Units     ",
            $"Max processes             {nprocSoft,-20} unlimited            processes ",
            "Max open files            20000                20000                files     ",
        ]);
    }
}
