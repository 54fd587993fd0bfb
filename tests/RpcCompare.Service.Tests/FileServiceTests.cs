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

    [Fact]
    public async Task WriteAt_GivenData_WritesExactlyThoseBytesAtTheOffset_IgnoringCount()
    {
        var data = "hello, file"u8.ToArray();
        var expected = await SeedFileAsync();
        data.CopyTo(expected, 10);

        var reply = await _service.WriteAtAsync(new WriteAtRequest { Data = data, Count = 3, Offset = 10 });

        Assert.Equal((data.Length, 10L, 4096L), (reply.BytesWritten, reply.Offset, reply.FileLength));
        Assert.Equal(expected, await SeedFileAsync());
    }

    [Fact]
    public async Task WriteAt_AtTheEndOfTheFile_AppendsAndReportsTheNewLength()
    {
        var reply = await _service.WriteAtAsync(new WriteAtRequest { Count = 10, Offset = 4096 });

        Assert.Equal((10L, 4096L, 4106L), (reply.BytesWritten, reply.Offset, reply.FileLength));
        Assert.Equal(4106, (await SeedFileAsync()).Length);
    }

    [Fact]
    public async Task WriteAt_OneByteBeyondTheEnd_IsInvalidArgumentAndWritesNothing()
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => _service.WriteAtAsync(new WriteAtRequest { Count = 10, Offset = 4097 }));

        Assert.Equal(RpcErrorCode.InvalidArgument, error.Code);
        Assert.Contains("4097", error.Message, StringComparison.Ordinal);
        Assert.Equal(4096, (await SeedFileAsync()).Length);
    }

    [Fact]
    public async Task WriteAt_RepeatedAtTheEnd_GrowsTheFileOnce()
    {
        // Each repeat writes at the same place: the end as it was measured before the first write.
        var reply = await _service.WriteAtAsync(new WriteAtRequest { Count = 10, Offset = 4096, Repeat = 3 });

        Assert.Equal((30L, 4096L, 4106L), (reply.BytesWritten, reply.Offset, reply.FileLength));
    }

    [Fact]
    public async Task WriteAt_MoreThanThePatternLength_WritesThePatternOnAndOn()
    {
        const int count = 5000;

        var reply = await _service.WriteAtAsync(new WriteAtRequest { Count = count, Offset = 0 });

        Assert.Equal((count, 0L, (long)count), (reply.BytesWritten, reply.Offset, reply.FileLength));
        var content = await SeedFileAsync();
        var expected = Enumerable.Range(0, count).Select(i => (byte)('a' + (i % 4096 % 26))).ToArray();
        Assert.Equal(expected, content[..count]);
    }

    [Theory]
    [InlineData(0, 100)]
    [InlineData(1, 1)]
    [InlineData(4096, 4096)]
    public async Task WriteAt_Count_WritesThatManyPatternBytes(int count, int written)
    {
        var expected = await SeedFileAsync();
        for (var i = 0; i < written; i++)
        {
            expected[i] = (byte)('a' + (i % 26));
        }

        var reply = await _service.WriteAtAsync(new WriteAtRequest { Count = count, Offset = 0 });

        Assert.Equal(written, reply.BytesWritten);
        Assert.Equal(expected, await SeedFileAsync());
    }

    [Fact]
    public async Task WriteAt_TheLargestCount_AndManyRepeats_AreAccepted()
    {
        // MaxRepeat itself would be 100,000 file opens in one test; 1,000 shows repeats add up.
        var largest = await _service.WriteAtAsync(new WriteAtRequest { Count = FileService.MaxWriteCount, Offset = 0 });
        var most = await _service.WriteAtAsync(new WriteAtRequest { Count = 1, Offset = 0, Repeat = 1000 });

        Assert.Equal(FileService.MaxWriteCount, largest.BytesWritten);
        Assert.Equal(1000, most.BytesWritten);
    }

    [Fact]
    public async Task WriteAt_OneRepeatTooMany_IsInvalidArgument()
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => _service.WriteAtAsync(new WriteAtRequest { Count = 1, Repeat = FileService.MaxRepeat + 1 }));

        Assert.Equal(RpcErrorCode.InvalidArgument, error.Code);
        Assert.Contains($"{FileService.MaxRepeat + 1}", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(null)]
    [InlineData(-1L)]
    [InlineData(-4096L)]
    public async Task WriteAt_OffsetNotGivenOrNegative_WritesInTheMiddle(long? offset)
    {
        var reply = await _service.WriteAtAsync(new WriteAtRequest { Count = 10, Offset = offset });

        Assert.Equal((4096 - 10) / 2, reply.Offset);
    }

    [Fact]
    public async Task WriteAt_CountLargerThanTheFile_InTheMiddle_WritesAtZero()
    {
        var reply = await _service.WriteAtAsync(new WriteAtRequest { Count = 5000 });

        Assert.Equal((0L, 5000L), (reply.Offset, reply.FileLength));
    }

    [Fact]
    public async Task WriteAt_ADirectory_IsNotFound()
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => _service.WriteAtAsync(new WriteAtRequest { Path = DataRoot.DefaultDirectoryName }));

        Assert.Equal(RpcErrorCode.NotFound, error.Code);
    }

    [Fact]
    public async Task Ping_Answers()
    {
        Assert.NotNull(await _service.PingAsync(new PingRequest()));
    }

    [Fact]
    public async Task ReadDirectory_NotGivenOrEmpty_ListsTheRoot()
    {
        foreach (var path in new[] { null, "" })
        {
            var reply = await _service.ReadDirectoryAsync(new ReadDirectoryRequest { Path = path });

            Assert.Equal([DataRoot.DefaultFileName, DataRoot.DefaultDirectoryName], reply.Entries.Select(e => e.Name));
            var file = reply.Entries[0];
            Assert.Equal((4096L, false), (file.Size, file.IsDirectory));
            Assert.Equal(File.GetLastWriteTimeUtc(Path.Combine(_root.FullPath, DataRoot.DefaultFileName)).Ticks, file.LastWriteTimeUtcTicks);
        }
    }

    private Task<byte[]> SeedFileAsync() => File.ReadAllBytesAsync(Path.Combine(_root.FullPath, DataRoot.DefaultFileName));

    [Fact]
    public async Task WriteAt_EmptyData_WritesCountPatternBytes()
    {
        var reply = await _service.WriteAtAsync(new WriteAtRequest { Data = [], Count = 7, Offset = 0 });

        Assert.Equal(7, reply.BytesWritten);
        Assert.Equal("abcdefg"u8.ToArray(), (await SeedFileAsync())[..7]);
    }

    [Fact]
    public async Task WriteAt_TheMostRepeats_AreAccepted()
    {
        var reply = await _service.WriteAtAsync(new WriteAtRequest { Count = 1, Offset = 0, Repeat = FileService.MaxRepeat });

        Assert.Equal(FileService.MaxRepeat, reply.BytesWritten);
    }

    [Fact]
    public async Task Refusals_NameWhatWasAskedFor()
    {
        async Task<string> MessageOf(Func<Task> call) => (await Assert.ThrowsAsync<RpcServiceException>(call)).Message;

        Assert.Equal($"'{DataRoot.DefaultFileName}' is a file, not a directory.", await MessageOf(() => _service.ReadDirectoryAsync(new ReadDirectoryRequest { Path = DataRoot.DefaultFileName })));
        Assert.Equal("Directory 'nope' does not exist under the data root.", await MessageOf(() => _service.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "nope" })));
        Assert.Equal("File 'new.bin' does not exist under the data root.", await MessageOf(() => _service.WriteAtAsync(new WriteAtRequest { Path = "new.bin" })));
        Assert.Equal($"Count must be between 1 and {FileService.MaxWriteCount}; got -5.", await MessageOf(() => _service.WriteAtAsync(new WriteAtRequest { Count = -5 })));
        Assert.Equal($"Repeat must be between 1 and {FileService.MaxRepeat}; got -1.", await MessageOf(() => _service.WriteAtAsync(new WriteAtRequest { Repeat = -1 })));
        Assert.Equal("Offset 4097 is past the end of the file (4096 bytes).", await MessageOf(() => _service.WriteAtAsync(new WriteAtRequest { Count = 1, Offset = 4097 })));
    }
}
