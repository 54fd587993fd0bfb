using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Pipes.Protocol;

/// <summary>
/// The hand-written encoding of every message, used by both the client and the server so the
/// two can never drift. Fields go in <c>[DataMember(Order)]</c> order, fixed-width little-endian;
/// byte arrays and strings carry an i32 length; arrays an i32 count.
/// </summary>
internal static class MessageCodec
{
    // A directory entry is at least: name length (4) + size (8) + flag (1) + ticks (8).
    private const int MinDirectoryEntrySize = 21;
    private const int RecordSize = 4;

    /// <summary>
    /// Decodes a whole frame body with <paramref name="decoder"/> and refuses trailing bytes.
    /// Synchronous so the ref-struct reader never lives across an await.
    /// </summary>
    public static T Decode<T>(ReadOnlySpan<byte> body, PayloadDecoder<T> decoder)
    {
        var reader = new PayloadReader(body);
        var value = decoder(ref reader);
        reader.EnsureEnd();
        return value;
    }

    public static void WriteEmpty<T>(FrameBuffer buffer, T value)
    {
    }

    public static void WriteReadDirectoryRequest(FrameBuffer buffer, ReadDirectoryRequest value) => buffer.WriteString(value.Path);

    public static ReadDirectoryRequest ReadReadDirectoryRequest(ref PayloadReader reader) => new() { Path = reader.ReadString() };

    public static void WriteReadDirectoryReply(FrameBuffer buffer, ReadDirectoryReply value)
    {
        buffer.WriteInt32(value.Entries.Length);
        foreach (var entry in value.Entries)
        {
            buffer.WriteString(entry.Name);
            buffer.WriteInt64(entry.Size);
            buffer.WriteBoolean(entry.IsDirectory);
            buffer.WriteInt64(entry.LastWriteTimeUtcTicks);
        }
    }

    public static ReadDirectoryReply ReadReadDirectoryReply(ref PayloadReader reader)
    {
        var entries = new DirectoryEntry[reader.ReadLength(MinDirectoryEntrySize)];
        for (var i = 0; i < entries.Length; i++)
        {
            entries[i] = new DirectoryEntry
            {
                Name = reader.ReadString(),
                Size = reader.ReadInt64(),
                IsDirectory = reader.ReadBoolean(),
                LastWriteTimeUtcTicks = reader.ReadInt64(),
            };
        }

        return new ReadDirectoryReply { Entries = entries };
    }

    public static void WriteWriteAtRequest(FrameBuffer buffer, WriteAtRequest value)
    {
        buffer.WriteString(value.Path);
        buffer.WriteInt32(value.Count);
        // Not given travels as -1, which the service reads the same way (the middle of the file).
        buffer.WriteInt64(value.Offset ?? -1);
        buffer.WriteInt32(value.Repeat);
        buffer.WriteBytes(value.Data);
    }

    public static WriteAtRequest ReadWriteAtRequest(ref PayloadReader reader) => new()
    {
        Path = reader.ReadString(),
        Count = reader.ReadInt32(),
        Offset = reader.ReadInt64(),
        Repeat = reader.ReadInt32(),
        Data = reader.ReadBytes() is { Length: > 0 } data ? data : null,
    };

    public static void WriteWriteAtReply(FrameBuffer buffer, WriteAtReply value)
    {
        buffer.WriteInt64(value.BytesWritten);
        buffer.WriteInt64(value.Offset);
        buffer.WriteInt64(value.FileLength);
    }

    public static WriteAtReply ReadWriteAtReply(ref PayloadReader reader) => new()
    {
        BytesWritten = reader.ReadInt64(),
        Offset = reader.ReadInt64(),
        FileLength = reader.ReadInt64(),
    };

    public static void WriteIntMessage(FrameBuffer buffer, IntMessage value) => buffer.WriteInt32(value.Value);

    public static IntMessage ReadIntMessage(ref PayloadReader reader) => new() { Value = reader.ReadInt32() };

    public static void WritePointMessage(FrameBuffer buffer, PointMessage value)
    {
        buffer.WriteInt32(value.X);
        buffer.WriteInt32(value.Y);
        buffer.WriteInt32(value.Z);
        buffer.WriteDouble(value.Weight);
    }

    public static PointMessage ReadPointMessage(ref PayloadReader reader) => new()
    {
        X = reader.ReadInt32(),
        Y = reader.ReadInt32(),
        Z = reader.ReadInt32(),
        Weight = reader.ReadDouble(),
    };

    public static void WriteBytesMessage(FrameBuffer buffer, BytesMessage value) => buffer.WriteBytes(value.Data);

    public static BytesMessage ReadBytesMessage(ref PayloadReader reader) => new() { Data = reader.ReadBytes() };

    public static void WriteRecordsMessage(FrameBuffer buffer, RecordsMessage value)
    {
        var records = value.Records ?? [];
        buffer.WriteInt32(records.Length);
        var span = buffer.Reserve(records.Length * RecordSize);
        for (var i = 0; i < records.Length; i++)
        {
            var record = records[i] ?? throw new ArgumentException($"Records[{i}] is null; every record must be set.", nameof(value));
            var slot = span.Slice(i * RecordSize, RecordSize);
            slot[0] = record.R;
            slot[1] = record.G;
            slot[2] = record.B;
            slot[3] = record.A;
        }
    }

    public static RecordsMessage ReadRecordsMessage(ref PayloadReader reader)
    {
        var records = new Rgba32[reader.ReadLength(RecordSize)];
        var span = reader.Take(records.Length * RecordSize);
        for (var i = 0; i < records.Length; i++)
        {
            var slot = span.Slice(i * RecordSize, RecordSize);
            records[i] = new Rgba32 { R = slot[0], G = slot[1], B = slot[2], A = slot[3] };
        }

        return new RecordsMessage { Records = records };
    }

    public static void WriteStringMessage(FrameBuffer buffer, StringMessage value) => buffer.WriteString(value.Text);

    public static StringMessage ReadStringMessage(ref PayloadReader reader) => new() { Text = reader.ReadString() };

    public static void WriteLengthReply(FrameBuffer buffer, LengthReply value) => buffer.WriteInt64(value.Length);

    public static LengthReply ReadLengthReply(ref PayloadReader reader) => new() { Length = reader.ReadInt64() };
}
