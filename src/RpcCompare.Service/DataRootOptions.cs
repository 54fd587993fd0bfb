namespace RpcCompare.Service;

/// <summary>Where file operations run, and what is put there so the service works with no set-up.</summary>
public sealed class DataRootOptions
{
    /// <summary>Configuration section these options bind to.</summary>
    public const string SectionName = "DataRoot";

    /// <summary>
    /// The directory file operations are confined to. Defaults to null: a fresh directory under the
    /// temp directory, created on start and deleted on shutdown.
    /// </summary>
    public string? Path { get; set; }

    /// <summary>Creates the seed file and directory when they are missing. Defaults to true.</summary>
    public bool Seed { get; set; } = true;

    /// <summary>Size of the seed file <see cref="DataRoot.DefaultFileName"/>. Defaults to 1 MiB.</summary>
    public long SeedFileSize { get; set; } = 1024 * 1024;

    /// <summary>Entries in the seed directory <see cref="DataRoot.DefaultDirectoryName"/>. Defaults to 100.</summary>
    public int SeedDirectoryEntries { get; set; } = 100;
}
