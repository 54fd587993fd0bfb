using System.Text;
using RpcCompare.Contracts;

namespace RpcCompare.Service.Internal;

/// <summary>
/// Maps a client's relative path to a path inside the data root, or refuses it. Refuses before
/// touching the file system: absolute paths, '..' segments, NUL and control characters, over-long
/// names; then refuses any existing component that is a symlink resolving outside the root.
/// </summary>
/// <remarks>
/// The result is the real path (every link resolved), with no symlink left in it. The services do
/// not open it by name: <see cref="RootedFiles"/> opens it one name at a time from the root with
/// openat(2) and O_NOFOLLOW, so a symlink swapped in between this check and the open (by someone
/// with write access to the root) is refused there, never followed, and checks each handle's own
/// path (/proc/self/fd) against the root. The root is the service's own directory.
/// </remarks>
internal sealed class PathGuard
{
    // Linux NAME_MAX is 255 bytes; PATH_MAX is 4096 but nothing legitimate here comes close to it.
    public const int MaxNameBytes = 255;
    public const int MaxPathChars = 1024;

    private static readonly char[] s_separators = ['/', '\\'];
    private readonly string _root;
    private readonly string _rootWithSeparator;

    public PathGuard(string root)
    {
        _root = root;
        _rootWithSeparator = root.EndsWith(Path.DirectorySeparatorChar) ? root : root + Path.DirectorySeparatorChar;
    }

    /// <summary>Returns the absolute path for <paramref name="relative"/>; null or empty is the root.</summary>
    public string Resolve(string? relative)
    {
        if (string.IsNullOrEmpty(relative))
        {
            return _root;
        }

        if (relative.Length > MaxPathChars)
        {
            throw Refuse(relative, $"it is longer than {MaxPathChars} characters");
        }

        foreach (var c in relative)
        {
            if (char.IsControl(c))
            {
                throw Refuse(relative, c == '\0' ? "it contains a NUL character" : "it contains a control character");
            }
        }

        if (Path.IsPathRooted(relative) || relative[0] is '/' or '\\' || (relative.Length > 1 && relative[1] == ':'))
        {
            throw Refuse(relative, "absolute paths are not accepted; give a path relative to the data root");
        }

        // Walk the real path: after a link, the next name is looked up where the link really leads.
        var current = _root;
        var links = 0;
        foreach (var segment in relative.Split(s_separators, StringSplitOptions.RemoveEmptyEntries))
        {
            if (segment == "..")
            {
                throw Refuse(relative, "'..' segments are not accepted");
            }

            if (segment == ".")
            {
                continue;
            }

            if (Encoding.UTF8.GetByteCount(segment) > MaxNameBytes)
            {
                throw Refuse(relative, $"a name is longer than {MaxNameBytes} bytes");
            }

            try
            {
                current = RealPath.Step(current, segment, ref links);
            }
            catch (IOException exception)
            {
                throw Refuse(relative, exception.Message.TrimEnd('.'));
            }

            if (!Contains(current))
            {
                throw Refuse(relative, "a symlink in it points outside the data root");
            }
        }

        return current;
    }

    /// <summary>Whether <paramref name="realPath"/> is the root or below it.</summary>
    public bool Contains(string realPath) =>
        realPath == _root || realPath.StartsWith(_rootWithSeparator, StringComparison.Ordinal);

    /// <summary>The guard's refusal of <paramref name="path"/>, for <paramref name="reason"/>.</summary>
    public static RpcServiceException Refuse(string path, string reason) =>
        new(RpcErrorCode.PathRefused, $"Path '{Printable(path)}' refused: {reason}.");

    // Echo enough of the path to recognise it, without control characters or a megabyte of it.
    private static string Printable(string path)
    {
        // Stryker disable once Linq : only the builder's starting capacity
        var builder = new StringBuilder(Math.Min(path.Length, 64));
        foreach (var c in path.AsSpan(0, Math.Min(path.Length, 60)))
        {
            builder.Append(char.IsControl(c) ? '?' : c);
        }

        return path.Length > 60 ? builder.Append("...").ToString() : builder.ToString();
    }
}
