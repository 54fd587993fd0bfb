using Microsoft.Win32.SafeHandles;
using RpcCompare.Contracts;

namespace RpcCompare.Service.Internal;

/// <summary>
/// Opens, creates and lists what <see cref="PathGuard"/> resolved, without the check-then-open
/// race: the guard's real path has no symlink in it, and on Linux it is opened one name at a time
/// from the root with openat(2) and O_NOFOLLOW, so a symlink swapped in since the check is met as
/// a symlink and refused (<see cref="Libc.ELOOP"/>, or ENOTDIR for a directory), never followed.
/// </summary>
/// <remarks>
/// Each handle is then checked once more by the path the kernel gives it (/proc/self/fd/N): that
/// catches a directory on the way renamed out of the root while the walk held it. Listing and the
/// cleanup of a broken upload go through the held directory handle too (/proc/self/fd/N/...).
/// Elsewhere than Linux the resolved path is opened as it is, and the race the guard's remarks
/// describe stays open; the product runs on Linux.
/// </remarks>
internal sealed class RootedFiles
{
    private readonly string _root;
    private readonly NoFollowWalk _walk;

    public RootedFiles(string root)
    {
        _root = Path.TrimEndingDirectorySeparator(root);
        Guard = new PathGuard(_root);
        _walk = new NoFollowWalk(_root, Guard);
    }

    public PathGuard Guard { get; }

    /// <summary>Checks <paramref name="relative"/> with the guard (which refuses what it refuses) and splits its real path.</summary>
    public RootedPath Resolve(string? relative)
    {
        var real = Path.TrimEndingDirectorySeparator(Guard.Resolve(relative));
        string[] names = real.Length == _root.Length ? [] : real[(_root.Length + 1)..].Split(Path.DirectorySeparatorChar);
        return new RootedPath(relative ?? "", real, names);
    }

    /// <summary>
    /// Opens an existing file to read, or to read and write; null when there is none, with
    /// <paramref name="isDirectory"/> telling whether a directory stands there instead.
    /// </summary>
    public SafeFileHandle? OpenFile(RootedPath path, FileAccess access, out bool isDirectory)
    {
        // Stryker disable all : off Linux only; the tests run on Linux, where this branch is never taken
        if (!OperatingSystem.IsLinux())
        {
            isDirectory = Directory.Exists(path.RealPath);
            return File.Exists(path.RealPath) ? File.OpenHandle(path.RealPath, FileMode.Open, access, FileShare.ReadWrite) : null;
        }
        // Stryker restore all

        isDirectory = path.Names.Length == 0;
        using var parent = isDirectory ? null : _walk.OpenParent(path, create: false);
        if (parent is null)
        {
            return null;
        }

        var mode = access == FileAccess.Read ? Libc.ReadOnly : Libc.ReadWrite;
        var file = NoFollowWalk.OpenAt(parent, path, mode | Libc.NoFollow | Libc.CloseOnExec, 0, out var errno);
        if (file is null)
        {
            isDirectory = errno == Libc.EISDIR;
            return errno is Libc.ENOENT or Libc.EISDIR ? null : throw NoFollowWalk.Failure(path, errno);
        }

        // Reading opens a directory as well (writing one is EISDIR); the caller wants a file.
        if (access == FileAccess.Read && File.GetAttributes(file).HasFlag(FileAttributes.Directory))
        {
            file.Dispose();
            isDirectory = true;
            return null;
        }

        return _walk.Verified(file, path);
    }

    /// <summary>
    /// Runs <paramref name="read"/> on the directory at <paramref name="path"/>, held open for
    /// it; default when there is none, with <paramref name="isFile"/> telling whether something
    /// else stands there. The <see cref="DirectoryInfo"/> names the held directory, not the path.
    /// </summary>
    public T? ReadDirectory<T>(RootedPath path, Func<DirectoryInfo, T> read, out bool isFile)
    {
        ArgumentNullException.ThrowIfNull(read);
        // Stryker disable all : off Linux only; the tests run on Linux, where this branch is never taken
        if (!OperatingSystem.IsLinux())
        {
            isFile = File.Exists(path.RealPath);
            return Directory.Exists(path.RealPath) ? read(new DirectoryInfo(path.RealPath)) : default;
        }
        // Stryker restore all

        isFile = false;
        SafeFileHandle? directory;
        if (path.Names.Length == 0)
        {
            directory = _walk.OpenRoot();
        }
        else
        {
            using var parent = _walk.OpenParent(path, create: false);
            if (parent is null)
            {
                return default;
            }

            directory = NoFollowWalk.OpenAt(parent, path, NoFollowWalk.DirectoryFlags, 0, out var errno);
            isFile = errno == Libc.ENOTDIR;
            if (directory is null)
            {
                return errno is Libc.ENOENT or Libc.ENOTDIR ? default : throw NoFollowWalk.Failure(path, errno);
            }
        }

        using (_walk.Verified(directory, path))
        {
            return read(new DirectoryInfo(NoFollowWalk.ProcPath(directory)));
        }
    }

    /// <summary>Creates a new file at <paramref name="path"/>, and the directories it needs, open to write.</summary>
    public SafeFileHandle CreateNew(RootedPath path)
    {
        if (path.Names.Length == 0)
        {
            throw new ArgumentException("The data root itself is not a file to create.", nameof(path));
        }

        // Stryker disable all : off Linux only; the tests run on Linux, where this branch is never taken
        if (!OperatingSystem.IsLinux())
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path.RealPath)!);
            return File.OpenHandle(path.RealPath, FileMode.CreateNew, FileAccess.Write);
        }
        // Stryker restore all

        using var parent = _walk.OpenParent(path, create: true)
            ?? throw new IOException($"Could not create '{path.Relative}': a name on its way is not a directory.");
        // O_EXCL creates or fails: it never follows a symlink standing at the name.
        var flags = Libc.WriteOnly | Libc.Create | Libc.Exclusive | Libc.NoFollow | Libc.CloseOnExec;
        var file = NoFollowWalk.OpenAt(parent, path, flags, Libc.DefaultFileMode, out var errno) ?? throw NoFollowWalk.Failure(path, errno);
        try
        {
            return _walk.Verified(file, path);
        }
        catch (RpcServiceException)
        {
            _ = Libc.UnlinkAt(parent, path.Names[^1], 0);
            throw;
        }
    }

    /// <summary>Deletes the file at <paramref name="path"/> if it is there: the cleanup after a broken write, so it reports nothing.</summary>
    public void DeleteQuietly(RootedPath path)
    {
        // Stryker disable all : off Linux only; the tests run on Linux, where this branch is never taken
        if (!OperatingSystem.IsLinux())
        {
            File.Delete(path.RealPath);
            return;
        }
        // Stryker restore all

        using var parent = path.Names.Length == 0 ? null : _walk.OpenParent(path, create: false);
        if (parent is not null)
        {
            // unlinkat removes the name itself, a symlink included, never what it points at.
            _ = Libc.UnlinkAt(parent, path.Names[^1], 0);
        }
    }
}
