using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace RpcCompare.Service.Internal;

/// <summary>
/// The walk under <see cref="RootedFiles"/>: openat(2) one name at a time from the root, never
/// following a symlink (O_NOFOLLOW), and the check of a handle's own path (/proc/self/fd/N). Linux only.
/// </summary>
internal sealed class NoFollowWalk
{
    /// <summary>A directory to walk through or list by (O_PATH: a handle to name it by, not to read with).</summary>
    public static readonly int DirectoryFlags = Libc.PathOnly | Libc.Directory | Libc.NoFollow | Libc.CloseOnExec;

    private const string SwappedIn = "a symlink was swapped into it while it was being opened";

    // Times a name met as a non-directory, then seen as a directory, is looked at before it counts as being swapped.
    private const int MaxLooks = 3;

    private readonly string _root;
    private readonly PathGuard _guard;

    public NoFollowWalk(string root, PathGuard guard)
    {
        _root = root;
        _guard = guard;
    }

    public static string ProcPath(SafeFileHandle handle) => $"/proc/self/fd/{handle.DangerousGetHandle()}";

    public SafeFileHandle OpenRoot()
    {
        // The root itself is trusted, as the guard trusts it: the service's own directory.
        var fd = Libc.OpenAt(Libc.AtCurrentDirectory, _root, DirectoryFlags, 0);
        return fd >= 0 ? new SafeFileHandle(fd, ownsHandle: true) : throw new IOException($"Could not open the data root '{_root}': {Marshal.GetPInvokeErrorMessage(Marshal.GetLastPInvokeError())}.");
    }

    /// <summary>
    /// The directory holding the last name of <paramref name="path"/>, walked name by name from the
    /// root without following any symlink; null when a name on the way is missing or is a file.
    /// With <paramref name="create"/> it makes the missing directories, as Directory.CreateDirectory does.
    /// </summary>
    public SafeFileHandle? OpenParent(RootedPath path, bool create)
    {
        var current = OpenRoot();
        try
        {
            foreach (var name in path.Names.AsSpan(0, path.Names.Length - 1))
            {
                var next = OpenAt(current, name, path, DirectoryFlags, 0, out var errno);
                if (next is null && create && errno == Libc.ENOENT)
                {
                    // A directory made meanwhile by someone else is as good (EEXIST); the open after says what it is.
                    if (Libc.MakeDirectoryAt(current, name, Libc.DefaultDirectoryMode) < 0 && Marshal.GetLastPInvokeError() != Libc.EEXIST)
                    {
                        throw Failure(path, Marshal.GetLastPInvokeError());
                    }

                    next = OpenAt(current, name, path, DirectoryFlags, 0, out errno);
                }

                if (next is null)
                {
                    current.Dispose();
                    return errno is Libc.ENOENT or Libc.ENOTDIR ? null : throw Failure(path, errno);
                }

                current.Dispose();
                current = next;
            }

            return current;
        }
        catch
        {
            current.Dispose();
            throw;
        }
    }

    /// <summary>
    /// The handle, when the kernel's own path for it (/proc/self/fd/N) is inside the root; else
    /// closes it and refuses. Without /proc there is nothing to read, and the walk stands alone.
    /// </summary>
    public SafeFileHandle Verified(SafeFileHandle handle, RootedPath path)
    {
        string? where;
        try
        {
            where = new FileInfo(ProcPath(handle)).LinkTarget;
        }
        catch (IOException)
        {
            where = null;
        }

        if (where is not null && !_guard.Contains(where))
        {
            handle.Dispose();
            throw PathGuard.Refuse(path.Relative, "it was moved out of the data root while it was being opened");
        }

        return handle;
    }

    public static IOException Failure(RootedPath path, int errno) =>
        new($"Could not open '{path.Relative}': {Marshal.GetPInvokeErrorMessage(errno)}.");

    /// <summary>openat(2) of the last name of <paramref name="path"/>; see the other overload.</summary>
    public static SafeFileHandle? OpenAt(SafeFileHandle directory, RootedPath path, int flags, uint mode, out int errno) =>
        OpenAt(directory, path.Names[^1], path, flags, mode, out errno);

    /// <summary>openat(2) of one name; null and the errno when it fails, a refusal when the name is now a symlink.</summary>
    private static SafeFileHandle? OpenAt(SafeFileHandle directory, string name, RootedPath path, int flags, uint mode, out int errno)
    {
        for (var look = 1; ; look++)
        {
            var fd = Libc.OpenAt(directory, name, flags, mode);
            if (fd >= 0)
            {
                errno = 0;
                return new SafeFileHandle(fd, ownsHandle: true);
            }

            errno = Marshal.GetLastPInvokeError();
            // The guard resolved every link, so a link here was put here since. O_NOFOLLOW meets
            // it as ELOOP; with O_DIRECTORY as ENOTDIR, which a file gives as well: look (lstat).
            if (errno == Libc.ELOOP)
            {
                throw PathGuard.Refuse(path.Relative, SwappedIn);
            }

            if (errno != Libc.ENOTDIR)
            {
                return null;
            }

            switch (KindOf(directory, name))
            {
                case FileAttributes.ReparsePoint:
                    throw PathGuard.Refuse(path.Relative, SwappedIn);
                case FileAttributes.Directory when look < MaxLooks:
                    // A directory again: it was swapped out and back in meanwhile. Open it again.
                    continue;
                case FileAttributes.Directory:
                    throw PathGuard.Refuse(path.Relative, SwappedIn);
                default:
                    return null; // a file (or nothing any more): not a directory to go on through
            }
        }
    }

    /// <summary>What stands at the name in the held directory, not following a link: ReparsePoint, Directory, or Normal for anything else.</summary>
    private static FileAttributes KindOf(SafeFileHandle directory, string name)
    {
        try
        {
            var attributes = File.GetAttributes($"{ProcPath(directory)}/{name}");
            return attributes.HasFlag(FileAttributes.ReparsePoint) ? FileAttributes.ReparsePoint
                : attributes.HasFlag(FileAttributes.Directory) ? FileAttributes.Directory
                : FileAttributes.Normal;
        }
        catch (IOException)
        {
            return FileAttributes.Normal;
        }
    }
}
