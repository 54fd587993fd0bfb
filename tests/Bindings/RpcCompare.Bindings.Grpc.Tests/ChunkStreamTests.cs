using Grpc.Core;
using RpcCompare.Bindings.Grpc.Streams;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Grpc.Tests;

/// <summary>A Stream as chunks: what a reader sees of the chunks that arrive, and what a writer sends of a stream.</summary>
public sealed class ChunkStreamTests
{
    [Fact]
    public async Task Reader_ReadsAcrossChunks_FirstChunkIncluded_ThenEnds()
    {
        var chunks = new Chunks([[3, 4], [], [5]]);
        await using var stream = new ChunkReadStream(chunks, new StreamChunk { Data = [1, 2] }, null, null, CancellationToken.None);
        var buffer = new byte[3];

        Assert.Equal(2, await stream.ReadAsync(buffer));
        Assert.Equal(new byte[] { 1, 2, 0 }, buffer);
        Assert.Equal(2, await stream.ReadAsync(buffer));
        Assert.Equal(new byte[] { 3, 4, 0 }, buffer);
        Assert.Equal(1, stream.Read(buffer, 0, 3));
        Assert.Equal(5, buffer[0]);
        Assert.Equal(0, stream.Read(buffer, 0, 3));
        Assert.Equal(0, await stream.ReadAsync(buffer));
        Assert.Equal(5, stream.Position);
    }

    [Fact]
    public void Reader_IsReadOnlyAndForwardOnly()
    {
        using var stream = new ChunkReadStream(new Chunks([]), null, null, null, CancellationToken.None);

        Assert.True(stream.CanRead);
        Assert.False(stream.CanSeek);
        Assert.False(stream.CanWrite);
        Assert.Throws<NotSupportedException>(() => stream.Length);
        Assert.Throws<NotSupportedException>(() => stream.Position = 1);
        Assert.Throws<NotSupportedException>(() => stream.Seek(0, SeekOrigin.Begin));
        Assert.Throws<NotSupportedException>(() => stream.SetLength(0));
        Assert.Throws<NotSupportedException>(() => stream.Write([1], 0, 1));
        stream.Flush();
        Assert.Equal(0, stream.Read(new byte[4], 0, 4));
    }

    [Fact]
    public async Task Reader_AFailedRead_IsMapped_AndDisposingDisposesTheOwner()
    {
        var owner = new Owner();
        var stream = new ChunkReadStream(new Chunks([], new RpcException(new Status(StatusCode.Unavailable, "gone"))), null, e => new IOException(e.Status.Detail), owner, CancellationToken.None);

        Assert.Equal("gone", (await Assert.ThrowsAsync<IOException>(() => stream.ReadAsync(new byte[1]).AsTask())).Message);
        await stream.DisposeAsync();
        Assert.True(owner.Disposed);
    }

    [Fact]
    public async Task Writer_SendsWholeChunks_ThenTheRest_AndCountsTheBytes()
    {
        var data = Enumerable.Range(0, (2 * StreamChunk.Size) + 5).Select(i => (byte)i).ToArray();
        var writer = new Writer();

        var sent = await StreamChunks.WriteAsync(new TrickleStream(data), writer, CancellationToken.None);

        Assert.Equal(data.Length, sent);
        Assert.Equal([StreamChunk.Size, StreamChunk.Size, 5], writer.Written.Select(c => c.Length));
        Assert.Equal(data, writer.Written.SelectMany(c => c));
        Assert.Equal(0, await StreamChunks.WriteAsync(new MemoryStream(), new Writer(), CancellationToken.None));
    }

    private sealed class Chunks(byte[][] data, RpcException? failure = null) : IAsyncStreamReader<StreamChunk>
    {
        private int _next;

        public StreamChunk Current { get; private set; } = new();

        public Task<bool> MoveNext(CancellationToken cancellationToken)
        {
            if (_next == data.Length)
            {
                return failure is null ? Task.FromResult(false) : Task.FromException<bool>(failure);
            }

            Current = new StreamChunk { Data = data[_next++] };
            return Task.FromResult(true);
        }
    }

    private sealed class Owner : IDisposable
    {
        public bool Disposed { get; private set; }

        public void Dispose() => Disposed = true;
    }

    private sealed class Writer : IAsyncStreamWriter<StreamChunk>
    {
        public List<byte[]> Written { get; } = [];

        public WriteOptions? WriteOptions { get; set; }

        public Task WriteAsync(StreamChunk message)
        {
            Written.Add(message.Data);
            return Task.CompletedTask;
        }
    }

    /// <summary>Gives at most 1,000 bytes per read, as a network stream may.</summary>
    private sealed class TrickleStream(byte[] data) : MemoryStream(data)
    {
        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            base.ReadAsync(buffer[..Math.Min(buffer.Length, 1_000)], cancellationToken);
    }
}
