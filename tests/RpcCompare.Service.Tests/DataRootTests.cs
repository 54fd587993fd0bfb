using RpcCompare.Testing;

namespace RpcCompare.Service.Tests;

public sealed class DataRootTests
{
    [Fact]
    public void Open_WithoutPath_CreatesSeedsAndDeletesTemporaryRoot()
    {
        string path;
        using (var root = DataRoot.Open(new DataRootOptions()))
        {
            path = root.FullPath;
            Assert.Equal(1024 * 1024, new FileInfo(Path.Combine(path, DataRoot.DefaultFileName)).Length);
            Assert.Equal(100, Directory.EnumerateFileSystemEntries(Path.Combine(path, DataRoot.DefaultDirectoryName)).Count());
            Assert.Equal(10, Directory.EnumerateDirectories(Path.Combine(path, DataRoot.DefaultDirectoryName)).Count());
        }

        Assert.False(Directory.Exists(path));
    }

    [Fact]
    public void Open_WithConfiguredPath_KeepsDirectoryAndExistingFiles()
    {
        using var directory = new TemporaryDirectory();
        File.WriteAllText(directory.PathFor(DataRoot.DefaultFileName), "mine");

        using (var root = DataRoot.Open(new DataRootOptions { Path = directory.FullPath, SeedDirectoryEntries = 3 }))
        {
            Assert.Equal("mine", File.ReadAllText(directory.PathFor(DataRoot.DefaultFileName)));
            Assert.Equal(3, Directory.EnumerateFileSystemEntries(directory.PathFor(DataRoot.DefaultDirectoryName)).Count());
        }

        Assert.True(Directory.Exists(directory.FullPath));
    }

    [Fact]
    public void Open_ThroughASymlinkedParent_UsesTheRealPath()
    {
        using var directory = new TemporaryDirectory();
        Directory.CreateDirectory(directory.PathFor("real"));
        Directory.CreateSymbolicLink(directory.PathFor("link"), directory.PathFor("real"));

        using var root = DataRoot.Open(new DataRootOptions { Path = directory.PathFor("link/root"), Seed = false });

        Assert.Equal(directory.PathFor("real/root"), root.FullPath);
    }
}
