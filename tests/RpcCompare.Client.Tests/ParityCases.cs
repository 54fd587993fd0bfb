using System.Security.Cryptography;
using RpcCompare.Contracts;
using static RpcCompare.Client.Tests.ParityCase;

namespace RpcCompare.Client.Tests;

/// <summary>
/// Every operation, with normal and refused requests, and payloads from 10 B to 10 MB, each with
/// the outcome the service must give (the host's data root is seeded: a 1 MiB data.bin and 100
/// entries under files/, every tenth a directory).
/// </summary>
public static class ParityCases
{
    public const string OutsideLinkName = "link-to-outside";

    public static readonly int[] PayloadSizes = [10, 100_000, 10_000_000];

    private const string Ticks = @"\d+";

    public static IEnumerable<ParityCase> All()
    {
        yield return new("Ping", Exactly("ok: {}"), async (f, s, p) => await f.PingAsync(new PingRequest()));
        yield return new("ReadDirectory ''",
            $$"""ok: \{"Entries":\[\{"Name":"data\.bin","Size":1048576,"IsDirectory":false,"LastWriteTimeUtcTicks":{{Ticks}}\},\{"Name":"files","Size":0,"IsDirectory":true,.*\]\}""",
            async (f, s, p) => await f.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "" }));
        yield return new("ReadDirectory 'files'",
            $$"""ok: \{"Entries":\[\{"Name":"entry-00000\.txt","Size":0,"IsDirectory":false,"LastWriteTimeUtcTicks":{{Ticks}}\},(?=.*\{"Name":"entry-00009","Size":0,"IsDirectory":true,)(?=.*\{"Name":"entry-00098\.txt","Size":980,"IsDirectory":false,)(?:\{[^{}]*\},){98}\{[^{}]*\}\]\}""",
            async (f, s, p) => await f.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "files" }));
        yield return new("ReadDirectory 'files/entry-00009'", Exactly("ok: {\"Entries\":[]}"), async (f, s, p) => await f.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "files/entry-00009" }));

        string[][] refusals =
        [
            ["missing", Exactly("error: NotFound: Directory 'missing' does not exist under the data root.")],
            ["data.bin", Exactly("error: InvalidArgument: 'data.bin' is a file, not a directory.")],
            ["../", Exactly("error: PathRefused: Path '../' refused: '..' segments are not accepted.")],
            ["/etc", Exactly("error: PathRefused: Path '/etc' refused: absolute paths are not accepted; give a path relative to the data root.")],
            ["files/../../x", Exactly("error: PathRefused: Path 'files/../../x' refused: '..' segments are not accepted.")],
            ["a\0b", @"error: PathRefused: Path 'a.+b' refused: it contains a NUL character\."],
            [new string('n', 300), @"error: PathRefused: Path 'n+(\.\.\.)?' refused: a name is longer than 255 bytes\."],
            [OutsideLinkName, Exactly($"error: PathRefused: Path '{OutsideLinkName}' refused: a symlink in it points outside the data root.")],
            [OutsideLinkName + "/x", Exactly($"error: PathRefused: Path '{OutsideLinkName}/x' refused: a symlink in it points outside the data root.")],
        ];
        foreach (var refusal in refusals)
        {
            var path = refusal[0];
            yield return new($"ReadDirectory refused '{Printable(path)}'", refusal[1], async (f, s, p) => await f.ReadDirectoryAsync(new ReadDirectoryRequest { Path = path }));
        }

        // 100 bytes (the default) in the middle of the 1 MiB file: (1,048,576 - 100) / 2.
        yield return new("WriteAt defaults", Exactly("ok: {\"BytesWritten\":100,\"Offset\":524238,\"FileLength\":1048576}"), async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest()));
        yield return new("WriteAt twice", Exactly("ok: {\"BytesWritten\":200,\"Offset\":524238,\"FileLength\":1048576}"), async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Repeat = 2 }));
        yield return new("WriteAt 1000 at 0", Exactly("ok: {\"BytesWritten\":1000,\"Offset\":0,\"FileLength\":1048576}"), async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Count = 1000, Offset = 0 }));
        yield return new("WriteAt escape", Exactly("error: PathRefused: Path '../victim' refused: '..' segments are not accepted."), async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Path = "../victim" }));
        yield return new("WriteAt absolute", @"error: PathRefused: Path '/tmp/victim' refused: absolute paths are not accepted; .*", async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Path = "/tmp/victim" }));
        yield return new("WriteAt missing", Exactly("error: NotFound: File 'files/none.bin' does not exist under the data root."), async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Path = "files/none.bin" }));
        yield return new("WriteAt bad count", @"error: InvalidArgument: Count must be between 1 and \d+; got -1\.", async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Count = -1 }));

        yield return new("VoidCall", Exactly("ok: void"), async (f, s, p) => { await s.VoidCallAsync(); return null; });
        yield return new("TakeInt", Exactly("ok: void"), async (f, s, p) => { await s.TakeIntAsync(new IntMessage { Value = -7 }); return null; });
        yield return new("ReturnInt", Exactly("ok: {\"Value\":42}"), async (f, s, p) => await s.ReturnIntAsync());
        yield return new("Increment 41", Exactly("ok: {\"Value\":42}"), async (f, s, p) => await s.IncrementAsync(new IntMessage { Value = 41 }));
        yield return new("Increment max", Exactly("ok: {\"Value\":-2147483648}"), async (f, s, p) => await s.IncrementAsync(new IntMessage { Value = int.MaxValue }));
        yield return new("TakePoint", Exactly("ok: void"), async (f, s, p) => { await s.TakePointAsync(new PointMessage { X = 1, Y = -2, Z = 3, Weight = 0.25 }); return null; });

        foreach (var size in PayloadSizes)
        {
            var sha = Convert.ToHexString(SHA256.HashData(Bytes(size)));
            yield return new($"EchoBytes {size}", Exactly($"ok: {{\"Length\":{size},\"Sha256\":\"{sha}\",\"SameAsSent\":true}}"), async (f, s, p) =>
            {
                var sent = Bytes(size);
                var reply = await p.EchoBytesAsync(new BytesMessage { Data = sent });
                return new { reply.Data.Length, Sha256 = Convert.ToHexString(SHA256.HashData(reply.Data)), SameAsSent = reply.Data.AsSpan().SequenceEqual(sent) };
            });
            yield return new($"SendBytes {size}", Exactly($"ok: {{\"Length\":{size}}}"), async (f, s, p) => await p.SendBytesAsync(new BytesMessage { Data = Bytes(size) }));
            yield return new($"SendRecords {size}", Exactly($"ok: {{\"Length\":{size / 4}}}"), async (f, s, p) => await p.SendRecordsAsync(new RecordsMessage { Records = Records(size / 4) }), MayExceedQuota: size > 1_000_000);
            // Length is the string's length in chars (the service counts what it received).
            yield return new($"SendString {size}", Exactly($"ok: {{\"Length\":{size / 2}}}"), async (f, s, p) => await p.SendStringAsync(new StringMessage { Text = new string('é', size / 2) }));
        }

        yield return new("EchoBytes empty", Exactly("ok: 0"), async (f, s, p) => (await p.EchoBytesAsync(new BytesMessage { Data = [] })).Data.Length);
    }

    private static byte[] Bytes(int size)
    {
        var data = new byte[size];
        new Random(size).NextBytes(data);
        return data;
    }

    private static Rgba32[] Records(int count) =>
        [.. Enumerable.Range(0, count).Select(i => new Rgba32 { R = (byte)i, G = (byte)(i >> 8), B = (byte)(i >> 16), A = 255 })];

    private static string Printable(string path) => path.Length > 20 ? path[..20] + "..." : path.Replace("\0", "\\0", StringComparison.Ordinal);
}
