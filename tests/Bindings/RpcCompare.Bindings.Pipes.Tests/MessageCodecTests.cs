using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Pipes.Tests;

public sealed class MessageCodecTests
{
    [Fact]
    public void ReadDirectoryReply_RoundTrips()
    {
        var reply = new ReadDirectoryReply
        {
            Entries = [new DirectoryEntry { Name = "ä.txt", Size = 12, IsDirectory = false, LastWriteTimeUtcTicks = 638_000_000_000_000_000 }, new DirectoryEntry { Name = "d", IsDirectory = true }],
        };

        var decoded = RoundTrip(reply, MessageCodec.WriteReadDirectoryReply, MessageCodec.ReadReadDirectoryReply);

        Assert.Equal(2, decoded.Entries.Length);
        Assert.Equal("ä.txt", decoded.Entries[0].Name);
        Assert.Equal(12, decoded.Entries[0].Size);
        Assert.Equal(638_000_000_000_000_000, decoded.Entries[0].LastWriteTimeUtcTicks);
        Assert.True(decoded.Entries[1].IsDirectory);
    }

    [Fact]
    public void WriteAtRequestAndPointAndRecords_RoundTrip()
    {
        var write = RoundTrip(new WriteAtRequest { Path = "p", Count = 3, Offset = -1, Repeat = 2 }, MessageCodec.WriteWriteAtRequest, MessageCodec.ReadWriteAtRequest);
        var point = RoundTrip(new PointMessage { X = -1, Y = 2, Z = int.MaxValue, Weight = 1.5 }, MessageCodec.WritePointMessage, MessageCodec.ReadPointMessage);
        var records = RoundTrip(new RecordsMessage { Records = [new Rgba32 { R = 1, G = 2, B = 3, A = 4 }] }, MessageCodec.WriteRecordsMessage, MessageCodec.ReadRecordsMessage);

        Assert.Equal(("p", 3, -1L, 2), (write.Path, write.Count, write.Offset, write.Repeat));
        Assert.Equal((-1, 2, int.MaxValue, 1.5), (point.X, point.Y, point.Z, point.Weight));
        Assert.Equal((1, 2, 3, 4), (records.Records[0].R, records.Records[0].G, records.Records[0].B, records.Records[0].A));
    }

    [Fact]
    public void HostileCount_IsRefusedBeforeAllocating()
    {
        // Claims two billion records in an eight-byte body.
        byte[] body = [0xFF, 0xFF, 0xFF, 0x7F, 1, 2, 3, 4];

        var error = Assert.Throws<PipeProtocolException>(() => Decode(body, MessageCodec.ReadRecordsMessage));

        Assert.Contains("does not fit", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ACountOneRecordTooLarge_IsRefusedAsNotFitting()
    {
        // Two 4-byte records claimed, 4 bytes there: refused by the count check, before reading.
        byte[] body = [2, 0, 0, 0, 1, 2, 3, 4];

        var error = Assert.Throws<PipeProtocolException>(() => Decode(body, MessageCodec.ReadRecordsMessage));

        Assert.Contains("does not fit", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ABooleanOtherThan0Or1_IsRefused()
    {
        // One directory entry: name "a", size 0, IsDirectory = 2.
        byte[] body = [1, 0, 0, 0, 1, 0, 0, 0, (byte)'a', 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0];

        var error = Assert.Throws<PipeProtocolException>(() => Decode(body, MessageCodec.ReadReadDirectoryReply));

        Assert.Equal("Expected a boolean (0 or 1), found 2.", error.Message);
    }

    [Fact]
    public void SubscriptionEnded_CarriesTopicAndReason()
    {
        using var buffer = new FrameBuffer();
        PushCodec.WriteSubscriptionEnded(buffer, "news", "too slow");

        var (topic, reason) = MessageCodec.Decode(buffer.Complete(0).Span[PipeFrame.HeaderSize..], PushCodec.ReadSubscriptionEnded);

        Assert.Equal(("news", "too slow"), (topic, reason));
    }

    [Fact]
    public void NegativeLength_IsRefused()
    {
        byte[] body = [0xFF, 0xFF, 0xFF, 0xFF];

        Assert.Throws<PipeProtocolException>(() => Decode(body, MessageCodec.ReadBytesMessage));
    }

    [Fact]
    public void InvalidUtf8_IsRefused()
    {
        byte[] body = [2, 0, 0, 0, 0xC3, 0x28];

        var error = Assert.Throws<PipeProtocolException>(() => Decode(body, MessageCodec.ReadStringMessage));

        Assert.Equal("A string is not valid UTF-8.", error.Message);
    }

    [Fact]
    public void ShortBody_IsRefused()
    {
        var error = Assert.Throws<PipeProtocolException>(() => Decode([1, 2], MessageCodec.ReadIntMessage));

        Assert.StartsWith("The frame body ends early: needed 4 more bytes, 2", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void TrailingBytes_AreRefused()
    {
        var error = Assert.Throws<PipeProtocolException>(() => Decode([1, 0, 0, 0, 9], MessageCodec.ReadIntMessage));

        Assert.Contains("trailing", error.Message, StringComparison.Ordinal);
    }

    private static T RoundTrip<T>(T value, PayloadEncoder<T> encode, PayloadDecoder<T> decode)
    {
        using var buffer = new FrameBuffer();
        encode(buffer, value);
        var frame = buffer.Complete(0);
        return Decode(frame[PipeFrame.HeaderSize..].ToArray(), decode);
    }

    private static T Decode<T>(byte[] body, PayloadDecoder<T> decode) => MessageCodec.Decode(body, decode);
}
