using RpcCompare.Service.Internal;

namespace RpcCompare.Service;

/// <summary>
/// The directory every file operation is confined to. Owns a temporary directory when none was
/// configured, and deletes it on dispose; never deletes a directory it did not create.
/// </summary>
public sealed class DataRoot : IDisposable
{
    /// <summary>The seeded file <see cref="Contracts.WriteAtRequest"/> writes to by default.</summary>
    public const string DefaultFileName = "data.bin";

    /// <summary>The seeded directory the directory-read measurement lists.</summary>
    public const string DefaultDirectoryName = "files";

    private readonly bool _ownsDirectory;

    private DataRoot(string fullPath, bool ownsDirectory)
    {
        FullPath = fullPath;
        _ownsDirectory = ownsDirectory;
        Files = new RootedFiles(fullPath);
    }

    /// <summary>Absolute, symlink-free path of the root.</summary>
    public string FullPath { get; }

    /// <summary>The guard and the race-free opening of what it accepts.</summary>
    internal RootedFiles Files { get; }

    /// <summary>Opens the configured root, or creates a temporary one, and seeds it.</summary>
    public static DataRoot Open(DataRootOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        DataRoot root;
        if (string.IsNullOrEmpty(options.Path))
        {
            var created = Directory.CreateTempSubdirectory("rpccompare-data-");
            root = new DataRoot(RealPath(created.FullName), ownsDirectory: true);
        }
        else
        {
            var full = System.IO.Path.GetFullPath(options.Path);
            Directory.CreateDirectory(full);
            root = new DataRoot(RealPath(full), ownsDirectory: false);
        }

        if (options.Seed)
        {
            DataRootSeeder.Seed(root.FullPath, options.SeedFileSize, options.SeedDirectoryEntries);
        }

        return root;
    }

    public void Dispose()
    {
        if (_ownsDirectory && Directory.Exists(FullPath))
        {
            Directory.Delete(FullPath, recursive: true);
        }
    }

    // The containment check compares real paths, so the root itself must be one
    // (on some systems the temp directory is reached through a symlink).
    private static string RealPath(string path) => System.IO.Path.TrimEndingDirectorySeparator(Internal.RealPath.Of(path));
}
