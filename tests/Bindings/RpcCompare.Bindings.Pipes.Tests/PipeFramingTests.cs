using System.Buffers.Binary;
using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// Frames as a socket really delivers them: a header split over two writes, a body arriving in
/// pieces larger and smaller than the server's receive chunk, two frames in one write, replies
/// larger than the 4 KiB starting buffer, and a peer that leaves in the middle of a body.
/// </summary>
public sealed class PipeFramingTests : IAsyncLifetime
{
    private InProcessHost _host = null!;

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync();

    public async Task DisposeAsync() => await _host.DisposeAsync();

    [Fact]
    public async Task HeaderSplitOverTwoWrites_IsReadAsOneFrame()
    {
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);
        var frame = IncrementFrame(41);

        await raw.SendAsync(frame[..2]);
        // Shapes the input, not a wait for a result: the server reads the two bytes on their own
        // (with Task.Yield both writes usually arrived together and the split was never exercised).
        await Task.Delay(100);
        await raw.SendAsync(frame[2..]);

        var reply = await raw.ReadReplyBytesAsync();
        Assert.Equal((PipeFrame.Success, 42), (reply!.Value.Status, BinaryPrimitives.ReadInt32LittleEndian(reply.Value.Body)));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(1000)]
    [InlineData(70_000)]
    public async Task BodyArrivingInPieces_IsReassembledInOrder(int piece)
    {
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);
        var payload = Payload(piece == 1 ? 300 : 200_000);
        var frame = RawPipeConnection.EchoFrame(payload);

        for (var sent = 0; sent < frame.Length; sent += piece)
        {
            await raw.SendAsync(frame[sent..Math.Min(frame.Length, sent + piece)]);
        }

        var reply = await raw.ReadReplyBytesAsync();
        Assert.Equal(PipeFrame.Success, reply!.Value.Status);
        Assert.Equal(payload.Length, BinaryPrimitives.ReadInt32LittleEndian(reply.Value.Body));
        Assert.Equal(payload, reply.Value.Body[4..]);
    }

    [Fact]
    public async Task TwoFramesInOneWrite_GetTwoRepliesInOrder()
    {
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);

        await raw.SendAsync([.. IncrementFrame(1), .. IncrementFrame(100)]);

        var first = await raw.ReadReplyBytesAsync();
        var second = await raw.ReadReplyBytesAsync();
        Assert.Equal(2, BinaryPrimitives.ReadInt32LittleEndian(first!.Value.Body));
        Assert.Equal(101, BinaryPrimitives.ReadInt32LittleEndian(second!.Value.Body));
    }

    [Theory]
    [InlineData(4_000)]
    [InlineData(4_097)]
    [InlineData(100_000)]
    [InlineData(3_000_000)]
    public async Task Client_ReplyOfAnySize_ArrivesWhole(int size)
    {
        var client = new PipesClientProvider().Create<IPayloadService>(_host.PipePath);
        var payload = Payload(size);

        var reply = await client.EchoBytesAsync(new BytesMessage { Data = payload }).Bounded();

        Assert.Equal(payload, reply.Data);
        // The connection's buffers are reused for the next, small, call.
        Assert.Equal(3, (await client.SendBytesAsync(new BytesMessage { Data = [1, 2, 3] }).Bounded()).Length);
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    [Fact]
    public async Task Client_DirectoryListingLargerThanTheStartingBuffer_ArrivesWhole()
    {
        var client = new PipesClientProvider().Create<IFileService>(_host.PipePath);

        var reply = await client.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "files" }).Bounded();

        Assert.Equal(Enumerable.Range(0, 100).Select(i => i % 10 == 9 ? $"entry-{i:D5}" : $"entry-{i:D5}.txt"), reply.Entries.Select(e => e.Name));
        Assert.Equal(10 * 42, reply.Entries.Single(e => e.Name == "entry-00042.txt").Size);
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    [Fact]
    public async Task PeerLeavingInsideABody_EndsItsConnectionAtOnce()
    {
        // With one connection allowed, the next client is served only once the server has let go
        // of the one that left; a server still waiting on it would refuse until the frame timeout.
        await using var host = await InProcessHost.StartAsync(o => o.MaxConnections = 1);
        await using (var leaving = await RawPipeConnection.ConnectAsync(host.PipePath))
        {
            var frame = RawPipeConnection.EchoFrame(Payload(1000));
            await leaving.SendAsync(frame[..300]);
        }

        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
        byte? status;
        do
        {
            await using var next = await RawPipeConnection.ConnectAsync(host.PipePath);
            status = await next.PingAsync();
        }
        while (status != PipeFrame.Success && DateTime.UtcNow < deadline);

        Assert.Equal(PipeFrame.Success, status);
    }

    private static byte[] IncrementFrame(int value)
    {
        var body = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(body, value);
        return RawPipeConnection.Frame(4, (byte)OperationCode.Increment, body);
    }

    private static byte[] Payload(int size) => [.. Enumerable.Range(0, size).Select(i => (byte)((i * 31) + (i >> 8)))];
}
