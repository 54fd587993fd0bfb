using RpcCompare.Contracts;

namespace RpcCompare.Service.Tests;

public sealed class FileTransferServiceTests : IDisposable
{
    private readonly DataRoot _root = DataRoot.Open(new DataRootOptions { SeedFileSize = 4096, SeedDirectoryEntries = 3 });
    private readonly FileTransferService _service;

    public FileTransferServiceTests()
    {
        _service = new FileTransferService(_root);
    }

    public void Dispose() => _root.Dispose();

    [Fact]
    public async Task Download_AFile_StreamsItsBytes()
    {
        var expected = await File.ReadAllBytesAsync(Path.Combine(_root.FullPath, DataRoot.DefaultFileName));

        await using var stream = await _service.DownloadAsync(new DownloadRequest { Path = DataRoot.DefaultFileName });

        Assert.Equal(expected, await ReadAllAsync(stream));
        Assert.False(stream.CanWrite);
    }

    [Fact]
    public async Task Download_LeavesTheFileReadableByOthers()
    {
        await using var first = await _service.DownloadAsync(new DownloadRequest { Path = DataRoot.DefaultFileName });
        await using var second = await _service.DownloadAsync(new DownloadRequest { Path = DataRoot.DefaultFileName });

        Assert.Equal(4096, (await ReadAllAsync(second)).Length);
    }

    [Fact]
    public async Task Download_AMissingFile_IsNotFound()
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => _service.DownloadAsync(new DownloadRequest { Path = "no-such.bin" }));

        Assert.Equal(RpcErrorCode.NotFound, error.Code);
        Assert.Equal("File 'no-such.bin' does not exist under the data root.", error.Message);
    }

    [Fact]
    public async Task Download_ADirectory_IsInvalidArgument()
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => _service.DownloadAsync(new DownloadRequest { Path = DataRoot.DefaultDirectoryName }));

        Assert.Equal(RpcErrorCode.InvalidArgument, error.Code);
        Assert.Equal("'files' is a directory, not a file.", error.Message);
    }

    [Fact]
    public async Task Download_OutsideTheRoot_IsRefusedByThePathRules()
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => _service.DownloadAsync(new DownloadRequest { Path = "../etc/passwd" }));

        Assert.Equal(RpcErrorCode.PathRefused, error.Code);
    }

    [Fact]
    public async Task Upload_StoresTheStreamUnderUploads_AndSaysWhere()
    {
        var sent = Enumerable.Range(0, 200_001).Select(i => (byte)(i * 3)).ToArray();

        var first = await _service.UploadAsync(new MemoryStream(sent));
        var second = await _service.UploadAsync(new MemoryStream([]));

        Assert.Equal(sent.Length, first.Length);
        Assert.StartsWith(FileTransferService.UploadsDirectoryName + "/", first.Path, StringComparison.Ordinal);
        Assert.EndsWith(".bin", first.Path, StringComparison.Ordinal);
        Assert.Equal(sent, await File.ReadAllBytesAsync(Path.Combine(_root.FullPath, first.Path)));
        Assert.NotEqual(first.Path, second.Path);
        Assert.Equal(0, second.Length);
        Assert.Empty(await File.ReadAllBytesAsync(Path.Combine(_root.FullPath, second.Path)));
    }

    [Fact]
    public async Task Upload_ThatBreaksOff_LeavesNoFile()
    {
        await Assert.ThrowsAsync<IOException>(() => _service.UploadAsync(new BrokenStream()));

        Assert.Empty(Directory.EnumerateFiles(Path.Combine(_root.FullPath, FileTransferService.UploadsDirectoryName)));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(70_000)]
    public async Task ReadPattern_StreamsTheRequestedLength_OfThePattern(long length)
    {
        await using var stream = await _service.ReadPatternAsync(new PatternRequest { Length = length });
        var bytes = await ReadAllAsync(stream);

        Assert.Equal(length, bytes.Length);
        Assert.All(Enumerable.Range(0, bytes.Length), i => Assert.Equal(PatternStream.At(i), bytes[i]));
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(FileTransferService.MaxPatternLength + 1)]
    public async Task ReadPattern_OutOfRange_IsInvalidArgument(long length)
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => _service.ReadPatternAsync(new PatternRequest { Length = length }));

        Assert.Equal(RpcErrorCode.InvalidArgument, error.Code);
        Assert.Equal($"Length must be between 0 and {FileTransferService.MaxPatternLength}; got {length}.", error.Message);
    }

    [Fact]
    public async Task ReadPattern_AtTheLimit_IsAccepted()
    {
        await using var stream = await _service.ReadPatternAsync(new PatternRequest { Length = FileTransferService.MaxPatternLength });

        Assert.Equal(FileTransferService.MaxPatternLength, stream.Length);
    }

    [Fact]
    public async Task Count_ReadsToTheEnd()
    {
        Assert.Equal(300_007, (await _service.CountAsync(new PatternStream(300_007))).Length);
        Assert.Equal(0, (await _service.CountAsync(new MemoryStream())).Length);
    }

    [Fact]
    public async Task NullArguments_AreRefusedAsInvalidArgument()
    {
        Assert.Equal("Download got no request; it needs a DownloadRequest.", (await Assert.ThrowsAsync<RpcServiceException>(() => _service.DownloadAsync(null!))).Message);
        Assert.Equal("Upload got no request; it needs a Stream.", (await Assert.ThrowsAsync<RpcServiceException>(() => _service.UploadAsync(null!))).Message);
        Assert.Equal("ReadPattern got no request; it needs a PatternRequest.", (await Assert.ThrowsAsync<RpcServiceException>(() => _service.ReadPatternAsync(null!))).Message);
        var count = await Assert.ThrowsAsync<RpcServiceException>(() => _service.CountAsync(null!));
        Assert.Equal((RpcErrorCode.InvalidArgument, "Count got no request; it needs a Stream."), (count.Code, count.Message));
    }

    [Fact]
    public void PatternStream_IsReadOnlyForwardOnly_WithItsLength()
    {
        using var stream = new PatternStream(10);
        var buffer = new byte[4];

        Assert.True(stream.CanRead);
        Assert.False(stream.CanSeek);
        Assert.False(stream.CanWrite);
        Assert.Equal(10, stream.Length);
        Assert.Equal(4, stream.Read(buffer, 0, 4));
        Assert.Equal(new byte[] { 0, 1, 2, 3 }, buffer);
        Assert.Equal(4, stream.Position);
        Assert.Equal(2, stream.Read(buffer, 1, 2));
        Assert.Equal(new byte[] { 0, 4, 5, 3 }, buffer);
        Assert.Equal(4, stream.Read(buffer));
        Assert.Equal(0, stream.Read(buffer));
        Assert.Equal(10, stream.Position);
        stream.Flush();
        Assert.Throws<NotSupportedException>(() => stream.Position = 0);
        Assert.Throws<NotSupportedException>(() => stream.Seek(0, SeekOrigin.Begin));
        Assert.Throws<NotSupportedException>(() => stream.SetLength(1));
        Assert.Throws<NotSupportedException>(() => stream.Write(buffer, 0, 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new PatternStream(-1));
        Assert.Equal(255, PatternStream.At(255));
        Assert.Equal(0, PatternStream.At(256));
    }

    [Fact]
    public void PatternStream_AReadLongerThanItsTable_FromAnyPosition_KeepsThePattern()
    {
        using var stream = new PatternStream(20_000);
        var buffer = new byte[9_000];

        Assert.Equal(10, stream.Read(buffer, 0, 10));
        Assert.Equal(9_000, stream.Read(buffer, 0, 9_000));

        Assert.All(Enumerable.Range(0, 9_000), i => Assert.Equal(PatternStream.At(10 + i), buffer[i]));
    }

    [Fact]
    public async Task PatternStream_ReadsAsynchronouslyAlike()
    {
        await using var stream = new PatternStream(5);
        var buffer = new byte[3];

#pragma warning disable CA1835 // The array overload is the one under test here.
        Assert.Equal(3, await stream.ReadAsync(buffer, 0, 3, CancellationToken.None));
#pragma warning restore CA1835
        Assert.Equal(new byte[] { 0, 1, 2 }, buffer);
        Assert.Equal(2, await stream.ReadAsync(buffer.AsMemory()));
        Assert.Equal(new byte[] { 3, 4, 2 }, buffer);
    }

    private static async Task<byte[]> ReadAllAsync(Stream stream)
    {
        using var copy = new MemoryStream();
        await stream.CopyToAsync(copy);
        return copy.ToArray();
    }

    /// <summary>Gives some bytes, then fails as a connection that dropped would.</summary>
    private sealed class BrokenStream : Stream
    {
        private bool _gave;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => 0; set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count)
        {
            if (_gave)
            {
                throw new IOException("The connection dropped.");
            }

            _gave = true;
            buffer[offset] = 1;
            return 1;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
