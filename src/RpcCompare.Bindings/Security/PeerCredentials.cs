using System.Runtime.InteropServices;

namespace RpcCompare.Bindings.Security;

/// <summary>
/// Who is at the other end of a Unix socket, as the kernel saw it when the peer connected
/// (getsockopt SO_PEERCRED: its process, user and group ids). Linux only.
/// </summary>
/// <param name="ProcessId">The peer's process id.</param>
/// <param name="UserId">Its effective user id.</param>
/// <param name="GroupId">Its effective group id.</param>
public readonly partial record struct PeerCredentials(int ProcessId, uint UserId, uint GroupId)
{
    private const int SolSocket = 1;
    private const int SoPeerCred = 17;

    /// <summary>The credentials of <paramref name="socket"/>'s peer; null off Linux or when the kernel gives none (not a Unix socket).</summary>
    public static PeerCredentials? Of(SafeHandle socket)
    {
        ArgumentNullException.ThrowIfNull(socket);
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        var length = Marshal.SizeOf<Ucred>();
        return GetSockOpt(socket, SolSocket, SoPeerCred, out var credentials, ref length) == 0 && length == Marshal.SizeOf<Ucred>()
            ? new PeerCredentials(credentials.Pid, credentials.Uid, credentials.Gid)
            : null;
    }

    /// <summary>This process's effective user id (Linux; 0 elsewhere, where nothing checks it).</summary>
    public static uint CurrentUserId => OperatingSystem.IsLinux() ? GetEffectiveUserId() : 0;

    [StructLayout(LayoutKind.Sequential)]
    private struct Ucred
    {
        public int Pid;
        public uint Uid;
        public uint Gid;
    }

    [LibraryImport("libc", EntryPoint = "getsockopt", SetLastError = true)]
    private static partial int GetSockOpt(SafeHandle socket, int level, int name, out Ucred value, ref int length);

    [LibraryImport("libc", EntryPoint = "geteuid")]
    private static partial uint GetEffectiveUserId();
}
