using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Bindings.Pipes.Server;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// Every operation the dispatcher knows, encoded as the client encodes it: the service receives
/// exactly what was sent, and the reply decodes, with the client's decoder, to what the service
/// returned. Recording services, so operations without a reply show that they ran.
/// </summary>
public sealed class PipeDispatcherTests
{
    private readonly RecordingServices _services = new();
    private readonly PipeDispatcher _dispatcher;

    public PipeDispatcherTests()
    {
        _dispatcher = new PipeDispatcher(_services, _services, _services);
    }

    [Fact]
    public async Task Ping_ReachesTheService()
    {
        var reply = await DispatchAsync(OperationCode.Ping, MessageCodec.WriteEmpty, 0);

        Assert.Empty(reply);
        Assert.Equal(["Ping"], _services.Calls);
    }

    [Fact]
    public async Task ReadDirectory_CarriesThePath_AndEveryEntry()
    {
        var reply = await DispatchAsync(OperationCode.ReadDirectory, MessageCodec.WriteReadDirectoryRequest, new ReadDirectoryRequest { Path = "files/ü" });
        var listing = MessageCodec.Decode(reply, MessageCodec.ReadReadDirectoryReply);

        Assert.Equal(["ReadDirectory files/ü"], _services.Calls);
        Assert.Equal([("a", 1L, false, 10L), ("b", 0L, true, 20L)], listing.Entries.Select(e => (e.Name, e.Size, e.IsDirectory, e.LastWriteTimeUtcTicks)));
    }

    [Theory]
    [InlineData(null, -1L)] // not given travels as -1: the middle of the file, as the service reads it
    [InlineData(0L, 0L)]
    [InlineData(5L, 5L)]
    public async Task WriteAt_CarriesEveryField_AndTheReply(long? offset, long offsetOnTheWire)
    {
        var reply = await DispatchAsync(OperationCode.WriteAt, MessageCodec.WriteWriteAtRequest,
            new WriteAtRequest { Path = "data.bin", Count = 3, Offset = offset, Repeat = 2, Data = [7, 8, 9] });
        var written = MessageCodec.Decode(reply, MessageCodec.ReadWriteAtReply);

        Assert.Equal([$"WriteAt data.bin 3 {offsetOnTheWire} 2 7,8,9"], _services.Calls);
        Assert.Equal((6L, 11L, 100L), (written.BytesWritten, written.Offset, written.FileLength));
    }

    [Fact]
    public async Task CallShapes_EachReachTheService_WithTheirArguments()
    {
        await DispatchAsync(OperationCode.VoidCall, MessageCodec.WriteEmpty, 0);
        await DispatchAsync(OperationCode.TakeInt, MessageCodec.WriteIntMessage, new IntMessage { Value = -7 });
        var returned = await DispatchAsync(OperationCode.ReturnInt, MessageCodec.WriteEmpty, 0);
        var incremented = await DispatchAsync(OperationCode.Increment, MessageCodec.WriteIntMessage, new IntMessage { Value = 41 });
        await DispatchAsync(OperationCode.TakePoint, MessageCodec.WritePointMessage, new PointMessage { X = 1, Y = -2, Z = 3, Weight = 0.25 });

        Assert.Equal(["VoidCall", "TakeInt -7", "ReturnInt", "Increment 41", "TakePoint 1 -2 3 0.25"], _services.Calls);
        Assert.Equal(99, MessageCodec.Decode(returned, MessageCodec.ReadIntMessage).Value);
        Assert.Equal(42, MessageCodec.Decode(incremented, MessageCodec.ReadIntMessage).Value);
    }

    [Fact]
    public async Task Payloads_ArriveWhole_RecordByRecord()
    {
        Rgba32[] records = [.. Enumerable.Range(0, 6).Select(i => new Rgba32 { R = (byte)i, G = (byte)(10 + i), B = (byte)(20 + i), A = (byte)(30 + i) })];

        var echoed = await DispatchAsync(OperationCode.EchoBytes, MessageCodec.WriteBytesMessage, new BytesMessage { Data = [1, 2, 3] });
        var sentBytes = await DispatchAsync(OperationCode.SendBytes, MessageCodec.WriteBytesMessage, new BytesMessage { Data = [1, 2, 3, 4] });
        var sentRecords = await DispatchAsync(OperationCode.SendRecords, MessageCodec.WriteRecordsMessage, new RecordsMessage { Records = records });
        var sentString = await DispatchAsync(OperationCode.SendString, MessageCodec.WriteStringMessage, new StringMessage { Text = "héllo" });

        Assert.Equal([3, 2, 1], MessageCodec.Decode(echoed, MessageCodec.ReadBytesMessage).Data);
        Assert.Equal(
            ["EchoBytes 1,2,3", "SendBytes 1,2,3,4", "SendRecords 0.10.20.30 1.11.21.31 2.12.22.32 3.13.23.33 4.14.24.34 5.15.25.35", "SendString héllo"],
            _services.Calls);
        Assert.Equal([4L, 6L, 5L], new[] { sentBytes, sentRecords, sentString }.Select(r => MessageCodec.Decode(r, MessageCodec.ReadLengthReply).Length));
    }

    [Theory]
    [InlineData((byte)OperationCode.Ping)]
    [InlineData((byte)OperationCode.VoidCall)]
    [InlineData((byte)OperationCode.ReturnInt)]
    public async Task AnOperationWithoutArguments_RefusesABody_WithoutCallingTheService(byte operation)
    {
        var error = await Assert.ThrowsAsync<PipeProtocolException>(() => DispatchAsync((OperationCode)operation, (b, _) => b.WriteByte(1), 0));

        Assert.Equal("This operation takes no arguments, but the request carried 1 bytes.", error.Message);
        Assert.Empty(_services.Calls);
    }

    [Fact]
    public async Task Publish_WithoutTopics_IsNotFound()
    {
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => DispatchAsync(OperationCode.Publish, PushCodec.WriteNotification, new Contracts.Push.Notification { Topic = "t" }));

        Assert.Equal((RpcErrorCode.NotFound, "This host serves no publish/subscribe (no topic registry was added)."), (error.Code, error.Message));
    }

    [Fact]
    public void ANullRecord_IsRefusedByTheEncoder_NamingIt()
    {
        using var buffer = new FrameBuffer();

        var error = Assert.Throws<ArgumentException>(() => MessageCodec.WriteRecordsMessage(buffer, new RecordsMessage { Records = [new Rgba32(), null!] }));

        Assert.StartsWith("Records[1] is null; every record must be set.", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void NoRecords_AreEncodedAsNone()
    {
        using var buffer = new FrameBuffer();

        MessageCodec.WriteRecordsMessage(buffer, new RecordsMessage { Records = null! });

        Assert.Equal([0, 0, 0, 0], buffer.Complete(0).Span[PipeFrame.HeaderSize..].ToArray());
    }

    private async Task<byte[]> DispatchAsync<T>(OperationCode operation, PayloadEncoder<T> encode, T request)
    {
        using var body = new FrameBuffer();
        encode(body, request);
        var bytes = body.Complete(0)[PipeFrame.HeaderSize..];
        using var reply = new FrameBuffer();
        await _dispatcher.DispatchAsync(operation, bytes, reply);
        return reply.Complete(0)[PipeFrame.HeaderSize..].ToArray();
    }
}
