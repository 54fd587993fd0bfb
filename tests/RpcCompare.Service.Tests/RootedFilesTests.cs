using RpcCompare.Contracts;
using RpcCompare.Service.Internal;
using RpcCompare.Testing;

namespace RpcCompare.Service.Tests;

/// <summary>
/// The race, one step at a time: the guard checks a path, then (before the open) a name on it is
/// swapped for a symlink leading out. The open must meet the link and refuse, not follow it.
/// </summary>
public sealed class RootedFilesTests : IDisposable
{
    private readonly TemporaryDirectory _outside = new();
    private readonly TemporaryDirectory _root = new();
    private readonly RootedFiles _files;

    public RootedFilesTests()
    {
        Directory.CreateDirectory(_root.PathFor("sub"));
        File.WriteAllText(_root.PathFor("sub/file.txt"), "inside");
        File.WriteAllText(_outside.PathFor("file.txt"), "outside");
        _files = new RootedFiles(_root.FullPath);
    }

    public void Dispose()
    {
        _root.Dispose();
        _outside.Dispose();
    }

    [Fact]
    public void Resolve_NoPath_IsTheRootWithAnEmptyRelativeName()
    {
        var path = _files.Resolve(null);

        Assert.Equal(("", _root.FullPath.TrimEnd('/'), 0), (path.Relative, path.RealPath, path.Names.Length));
    }

    [Fact]
    public void CreateNew_TheRootItself_IsRefused()
    {
        Assert.Throws<ArgumentException>("path", () => _files.CreateNew(_files.Resolve("")));
    }

    [Fact]
    public void CreateNew_UnderAFile_SaysANameOnItsWayIsNotADirectory()
    {
        var error = Assert.Throws<IOException>(() => _files.CreateNew(_files.Resolve("sub/file.txt/new.bin")));

        Assert.Equal("Could not create 'sub/file.txt/new.bin': a name on its way is not a directory.", error.Message);
    }

    [Fact]
    public void ReadDirectory_WithoutAReader_IsRefused()
    {
        Assert.Throws<ArgumentNullException>("read", () => _files.ReadDirectory<int>(_files.Resolve("sub"), null!, out _));
    }

    [Fact]
    public void OpenFile_ForWriting_CanWrite_AndForReading_CannotWrite()
    {
        var path = _files.Resolve("sub/file.txt");
        using (var writable = _files.OpenFile(path, FileAccess.ReadWrite, out _)!)
        {
            RandomAccess.Write(writable, "INSIDE"u8, 0);
        }

        using var readable = _files.OpenFile(path, FileAccess.Read, out var isDirectory)!;
        Assert.False(isDirectory);
        Assert.ThrowsAny<UnauthorizedAccessException>(() => RandomAccess.Write(readable, "x"u8, 0)); // EBADF: opened read-only
        Assert.Equal("INSIDE", File.ReadAllText(_root.PathFor("sub/file.txt")));
    }

    [Fact]
    public async Task StreamDrain_WithoutAStream_IsRefused()
    {
        await Assert.ThrowsAsync<ArgumentNullException>("stream", () => StreamDrain.ReadToEndAsync(null!));
    }

    [Theory]
    [InlineData(FileAccess.Read)]
    [InlineData(FileAccess.ReadWrite)]
    public void OpenFile_DirectorySwappedForALinkAfterTheCheck_IsRefused(FileAccess access)
    {
        var path = _files.Resolve("sub/file.txt");
        SwapForLink("sub", _outside.FullPath);

        var error = Assert.Throws<RpcServiceException>(() => _files.OpenFile(path, access, out _));

        AssertSwapRefusal(error);
        Assert.Equal("outside", File.ReadAllText(_outside.PathFor("file.txt")));
    }

    [Fact]
    public void OpenFile_FileSwappedForALinkAfterTheCheck_IsRefused()
    {
        var path = _files.Resolve("sub/file.txt");
        File.Delete(_root.PathFor("sub/file.txt"));
        File.CreateSymbolicLink(_root.PathFor("sub/file.txt"), _outside.PathFor("file.txt"));

        AssertSwapRefusal(Assert.Throws<RpcServiceException>(() => _files.OpenFile(path, FileAccess.Read, out _)));
    }

    [Fact]
    public void ReadDirectory_DirectorySwappedForALinkAfterTheCheck_IsRefused_AndNothingIsListed()
    {
        var path = _files.Resolve("sub");
        SwapForLink("sub", _outside.FullPath);
        var listed = false;

        var error = Assert.Throws<RpcServiceException>(() => _files.ReadDirectory(path, _ => listed = true, out _));

        AssertSwapRefusal(error);
        Assert.False(listed);
    }

    [Fact]
    public void CreateNew_DirectorySwappedForALinkAfterTheCheck_IsRefused_AndCreatesNothingOutside()
    {
        var path = _files.Resolve("sub/new.bin");
        SwapForLink("sub", _outside.FullPath);

        AssertSwapRefusal(Assert.Throws<RpcServiceException>(() => _files.CreateNew(path)));
        Assert.False(File.Exists(_outside.PathFor("new.bin")));
    }

    [Fact]
    public void CreateNew_ALinkStandingAtTheName_IsNotFollowed()
    {
        var path = _files.Resolve("sub/new.bin");
        File.CreateSymbolicLink(_root.PathFor("sub/new.bin"), _outside.PathFor("made.bin"));

        Assert.Throws<IOException>(() => _files.CreateNew(path));
        Assert.False(File.Exists(_outside.PathFor("made.bin")));
    }

    [Fact]
    public void CreateNew_MakesTheMissingDirectories_AndDeleteQuietlyRemovesTheFile()
    {
        var path = _files.Resolve("a/b/new.bin");

        using (var handle = _files.CreateNew(path))
        {
            RandomAccess.Write(handle, "made"u8, 0);
        }

        Assert.Equal("made", File.ReadAllText(_root.PathFor("a/b/new.bin")));
        _files.DeleteQuietly(path);
        Assert.False(File.Exists(_root.PathFor("a/b/new.bin")));
        _files.DeleteQuietly(path);
    }

    [Fact]
    public void OpenFile_ThroughAFile_IsNothingThere()
    {
        var path = _files.Resolve("sub/file.txt/more");

        Assert.Null(_files.OpenFile(path, FileAccess.Read, out var isDirectory));
        Assert.False(isDirectory);
    }

    [Fact]
    public void OpenFile_ThroughALinkInsideTheRoot_OpensWhatTheLinkLedToAtTheCheck()
    {
        // The guard's real path has no link in it: retargeting the link after the check changes nothing.
        Directory.CreateSymbolicLink(_root.PathFor("alias"), _root.PathFor("sub"));
        var path = _files.Resolve("alias/file.txt");
        File.Delete(_root.PathFor("alias"));
        Directory.CreateSymbolicLink(_root.PathFor("alias"), _outside.FullPath);

        using var handle = _files.OpenFile(path, FileAccess.Read, out _);

        Assert.NotNull(handle);
        using var stream = new FileStream(handle, FileAccess.Read);
        Assert.Equal("inside", new StreamReader(stream).ReadToEnd());
    }

    [Fact]
    public void ReadDirectory_OfTheRoot_ListsTheRoot()
    {
        var names = _files.ReadDirectory(_files.Resolve(""), d => d.EnumerateFileSystemInfos().Select(i => i.Name).ToArray(), out var isFile);

        Assert.Equal(["sub"], Assert.IsType<string[]>(names));
        Assert.False(isFile);
    }

    private void SwapForLink(string name, string target)
    {
        Directory.Move(_root.PathFor(name), _root.PathFor(name + ".moved"));
        Directory.CreateSymbolicLink(_root.PathFor(name), target);
    }

    private static void AssertSwapRefusal(RpcServiceException error)
    {
        Assert.Equal(RpcErrorCode.PathRefused, error.Code);
        Assert.Contains("swapped into it while it was being opened", error.Message, StringComparison.Ordinal);
    }
}
