using RpcCompare.Contracts;

namespace RpcCompare.Cli;

/// <summary>
/// Every operation of every contract, by the name rpcc takes. Replies are printed as JSON;
/// byte payloads are summarised (length and whether the echo matched) rather than dumped.
/// </summary>
internal static class CliOperations
{
    public static IReadOnlyList<CliOperation> All { get; } =
    [
        new("Ping", "IFileService: the empty call.",
            async (c, a) => await c.Get<IFileService>().PingAsync(new PingRequest())),
        new("ReadDirectory", "IFileService: list a directory (--path, default the root).",
            async (c, a) => await c.Get<IFileService>().ReadDirectoryAsync(new ReadDirectoryRequest { Path = a.Path })),
        new("WriteAt", "IFileService: write --count bytes (100) at --offset (middle) of --path (data.bin), --repeat times (1).",
            async (c, a) => await c.Get<IFileService>().WriteAtAsync(new WriteAtRequest { Path = a.Path, Count = a.Count, Offset = a.Offset, Repeat = a.Repeat })),
        new("VoidCall", "ICallShapeService: void().",
            async (c, a) => { await c.Get<ICallShapeService>().VoidCallAsync(); return null; }),
        new("TakeInt", "ICallShapeService: void(int --value).",
            async (c, a) => { await c.Get<ICallShapeService>().TakeIntAsync(new IntMessage { Value = a.Value }); return null; }),
        new("ReturnInt", "ICallShapeService: int().",
            async (c, a) => await c.Get<ICallShapeService>().ReturnIntAsync()),
        new("Increment", "ICallShapeService: int(int --value), returns value + 1.",
            async (c, a) => await c.Get<ICallShapeService>().IncrementAsync(new IntMessage { Value = a.Value })),
        new("TakePoint", "ICallShapeService: void(struct --x --y --z --weight).",
            async (c, a) => { await c.Get<ICallShapeService>().TakePointAsync(new PointMessage { X = a.X, Y = a.Y, Z = a.Z, Weight = a.Weight }); return null; }),
        new("EchoBytes", "IPayloadService: send --size bytes and get them back.",
            async (c, a) =>
            {
                var sent = Payloads.Bytes(a.Size);
                var reply = await c.Get<IPayloadService>().EchoBytesAsync(new BytesMessage { Data = sent });
                return new { reply.Data.Length, Matches = reply.Data.AsSpan().SequenceEqual(sent) };
            }),
        new("SendBytes", "IPayloadService: send --size bytes, get their count.",
            async (c, a) => await c.Get<IPayloadService>().SendBytesAsync(new BytesMessage { Data = Payloads.Bytes(a.Size) })),
        new("SendRecords", "IPayloadService: send --size bytes of 32-bit records, get their count.",
            async (c, a) => await c.Get<IPayloadService>().SendRecordsAsync(new RecordsMessage { Records = Payloads.Records(a.Size / 4) })),
        new("SendString", "IPayloadService: send --text, or a string of --size characters, get its length.",
            async (c, a) => await c.Get<IPayloadService>().SendStringAsync(new StringMessage { Text = a.Text ?? new string('x', a.Size) })),
    ];

    public static CliOperation? Find(string name) =>
        All.FirstOrDefault(o => string.Equals(o.Name, name, StringComparison.OrdinalIgnoreCase));
}
