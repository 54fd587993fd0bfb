using RpcCompare.Contracts;

namespace RpcCompare.Service.Tests;

public sealed class FileServiceTests : IDisposable
{
    private readonly DataRoot _root = DataRoot.Open(new DataRootOptions { SeedFileSize = 4096, SeedDirectoryEntries = 20 });
    private readonly FileService _service;

    public FileServiceTests()
    {
        _service = new FileService(_root);
    }

    public void Dispose() => _root.Dispose();

    [Fact]
    public async Task ReadDirectory_SeededDirectory_ListsEntriesSortedWithKindAndSize()
    {
        var reply = await _service.ReadDirectoryAsync(new ReadDirectoryRequest { Path = DataRoot.DefaultDirectoryName });

        Assert.Equal(20, reply.Entries.Length);
        Assert.Equal(reply.Entries.Select(e => e.Name).Order(StringComparer.Ordinal), reply.Entries.Select(e => e.Name));
        var file = Assert.Single(reply.Entries, e => e.Name == "entry-00003.txt");
        Assert.Equal(30, file.Size);
        Assert.False(file.IsDirectory);
        var directory = Assert.Single(reply.Entries, e => e.Name == "entry-00009");
        Assert.True(directory.IsDirectory);
        Assert.Equal(0, directory.Size);
    }

    [Fact]
    public async Task ReadDirectory_SymlinkEntries_AreListedWithoutFollowingThem()
    {
        var outside = Path.Combine(Path.GetTempPath(), "rpccompare-outside-" + Guid.NewGuid().ToString("N"));
        await File.WriteAllBytesAsync(outside, new byte[12345]);
        try
        {
            File.CreateSymbolicLink(Path.Combine(_root.FullPath, "files", "to-outside"), outside);
            File.CreateSymbolicLink(Path.Combine(_root.FullPath, "files", "dangling"), outside + ".missing");

            var reply = await _service.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "files" });

            var link = Assert.Single(reply.Entries, e => e.Name == "to-outside");
            Assert.Equal((0L, false, 0L), (link.Size, link.IsDirectory, link.LastWriteTimeUtcTicks));
            Assert.Single(reply.Entries, e => e.Name == "dangling");
        }
        finally
        {
            File.Delete(outside);
        }
    }

    [Fact]
    public async Task ReadDirectory_Missing_IsNotFound()
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => _service.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "nope" }));

        Assert.Equal(RpcErrorCode.NotFound, error.Code);
    }

    [Fact]
    public async Task ReadDirectory_OfAFile_IsInvalidArgument()
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => _service.ReadDirectoryAsync(new ReadDirectoryRequest { Path = DataRoot.DefaultFileName }));

        Assert.Equal(RpcErrorCode.InvalidArgument, error.Code);
    }

    [Fact]
    public async Task WriteAt_Defaults_Writes100BytesInTheMiddleOfTheSeedFile()
    {
        var reply = await _service.WriteAtAsync(new WriteAtRequest());

        Assert.Equal(100, reply.BytesWritten);
        Assert.Equal((4096 - 100) / 2, reply.Offset);
        Assert.Equal(4096, reply.FileLength);
        var content = await File.ReadAllBytesAsync(Path.Combine(_root.FullPath, DataRoot.DefaultFileName));
        Assert.Equal("abcdefghij"u8.ToArray(), content.AsSpan((int)reply.Offset, 10).ToArray());
    }

    [Fact]
    public async Task WriteAt_Twice_ReportsBothWritesAndKeepsLength()
    {
        var reply = await _service.WriteAtAsync(new WriteAtRequest { Repeat = 2, Count = 10, Offset = 0 });

        Assert.Equal(20, reply.BytesWritten);
        Assert.Equal(0, reply.Offset);
        Assert.Equal(4096, reply.FileLength);
    }

    [Theory]
    [InlineData(-5, 1, 0)]
    [InlineData(FileService.MaxWriteCount + 1, 1, 0)]
    [InlineData(10, -1, 0)]
    [InlineData(10, 1, 999_999)]
    public async Task WriteAt_OutOfRange_IsInvalidArgument(int count, int repeat, long offset)
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() =>
            _service.WriteAtAsync(new WriteAtRequest { Count = count, Repeat = repeat, Offset = offset }));

        Assert.Equal(RpcErrorCode.InvalidArgument, error.Code);
    }

    [Fact]
    public async Task WriteAt_MissingFile_IsNotFoundAndCreatesNothing()
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => _service.WriteAtAsync(new WriteAtRequest { Path = "new.bin" }));

        Assert.Equal(RpcErrorCode.NotFound, error.Code);
        Assert.False(File.Exists(Path.Combine(_root.FullPath, "new.bin")));
    }

    [Fact]
    public async Task WriteAt_PathEscape_IsRefusedAndTouchesNothingOutside()
    {
        var outside = Path.Combine(Path.GetDirectoryName(_root.FullPath)!, "rpccompare-victim-" + Guid.NewGuid().ToString("N"));
        await File.WriteAllTextAsync(outside, "untouched");
        try
        {
            var error = await Assert.ThrowsAsync<RpcServiceException>(() =>
                _service.WriteAtAsync(new WriteAtRequest { Path = "../" + Path.GetFileName(outside), Offset = 0 }));

            Assert.Equal(RpcErrorCode.PathRefused, error.Code);
            Assert.Equal("untouched", await File.ReadAllTextAsync(outside));
        }
        finally
        {
            File.Delete(outside);
        }
    }
}
