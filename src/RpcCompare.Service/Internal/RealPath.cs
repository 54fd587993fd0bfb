namespace RpcCompare.Service.Internal;

/// <summary>
/// realpath(3) in managed code: resolves every symlink in a path, one component at a time, each
/// link's target taken relative to the real directory that holds the link. .NET's own
/// ResolveLinkTarget resolves a relative target against the path as written, which is not where
/// the operating system will go when an earlier component is itself a link.
/// </summary>
internal static class RealPath
{
    // Linux gives up at 40 links in one lookup (ELOOP); so do we.
    public const int MaxLinks = 40;

    /// <summary>The real path of an absolute path, whose components need not exist.</summary>
    public static string Of(string absolutePath)
    {
        var links = 0;
        return Resolve(absolutePath, ref links);
    }

    /// <summary>
    /// Appends one name to a real directory path and returns the real path of the result: the
    /// same path when the name is not a link, else wherever the link really leads.
    /// </summary>
    public static string Step(string realDirectory, string name, ref int links)
    {
        var path = Path.Combine(realDirectory, name);
        var target = new FileInfo(path).LinkTarget;
        if (target is null)
        {
            return path;
        }

        if (++links > MaxLinks)
        {
            throw new IOException($"Too many levels of symbolic links at '{path}'.");
        }

        // An absolute target stands as it is (Path.Combine returns a rooted second argument unchanged);
        // a relative one is taken from the real directory holding the link.
        return Resolve(Path.Combine(realDirectory, target), ref links);
    }

    private static string Resolve(string absolutePath, ref int links)
    {
        // Stryker disable once NullCoalescing,String : every path reaching here is absolute, and on Linux its root is "/"
        var real = Path.GetPathRoot(absolutePath) ?? "/";
        foreach (var name in absolutePath[real.Length..].Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries))
        {
            real = name switch
            {
                "." => real,
                // The parent of a real path is real: no link can sit between them.
                ".." => Path.GetDirectoryName(real) ?? real,
                _ => Step(real, name, ref links),
            };
        }

        return real;
    }
}
