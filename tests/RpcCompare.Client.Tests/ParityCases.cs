using System.Security.Cryptography;
using RpcCompare.Contracts;

namespace RpcCompare.Client.Tests;

/// <summary>Every operation, with normal and refused requests, and payloads from 10 B to 10 MB.</summary>
public static class ParityCases
{
    public const string OutsideLinkName = "link-to-outside";

    public static readonly int[] PayloadSizes = [10, 100_000, 10_000_000];

    public static IEnumerable<ParityCase> All()
    {
        yield return new("Ping", async (f, s, p) => await f.PingAsync(new PingRequest()));
        foreach (var path in new[] { "", "files", "files/entry-00009" })
        {
            yield return new($"ReadDirectory '{path}'", async (f, s, p) => await f.ReadDirectoryAsync(new ReadDirectoryRequest { Path = path }));
        }

        foreach (var path in new[] { "missing", "data.bin", "../", "/etc", "files/../../x", "a\0b", new string('n', 300), OutsideLinkName, OutsideLinkName + "/x" })
        {
            yield return new($"ReadDirectory refused '{Printable(path)}'", async (f, s, p) => await f.ReadDirectoryAsync(new ReadDirectoryRequest { Path = path }));
        }

        yield return new("WriteAt defaults", async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest()));
        yield return new("WriteAt twice", async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Repeat = 2 }));
        yield return new("WriteAt 1000 at 0", async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Count = 1000, Offset = 0 }));
        yield return new("WriteAt escape", async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Path = "../victim" }));
        yield return new("WriteAt absolute", async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Path = "/tmp/victim" }));
        yield return new("WriteAt missing", async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Path = "files/none.bin" }));
        yield return new("WriteAt bad count", async (f, s, p) => await f.WriteAtAsync(new WriteAtRequest { Count = -1 }));

        yield return new("VoidCall", async (f, s, p) => { await s.VoidCallAsync(); return null; });
        yield return new("TakeInt", async (f, s, p) => { await s.TakeIntAsync(new IntMessage { Value = -7 }); return null; });
        yield return new("ReturnInt", async (f, s, p) => await s.ReturnIntAsync());
        yield return new("Increment 41", async (f, s, p) => await s.IncrementAsync(new IntMessage { Value = 41 }));
        yield return new("Increment max", async (f, s, p) => await s.IncrementAsync(new IntMessage { Value = int.MaxValue }));
        yield return new("TakePoint", async (f, s, p) => { await s.TakePointAsync(new PointMessage { X = 1, Y = -2, Z = 3, Weight = 0.25 }); return null; });

        foreach (var size in PayloadSizes)
        {
            yield return new($"EchoBytes {size}", async (f, s, p) =>
            {
                var sent = Bytes(size);
                var reply = await p.EchoBytesAsync(new BytesMessage { Data = sent });
                return new { reply.Data.Length, Sha256 = Convert.ToHexString(SHA256.HashData(reply.Data)), SameAsSent = reply.Data.AsSpan().SequenceEqual(sent) };
            });
            yield return new($"SendBytes {size}", async (f, s, p) => await p.SendBytesAsync(new BytesMessage { Data = Bytes(size) }));
            yield return new($"SendRecords {size}", async (f, s, p) => await p.SendRecordsAsync(new RecordsMessage { Records = Records(size / 4) }), MayExceedQuota: size > 1_000_000);
            yield return new($"SendString {size}", async (f, s, p) => await p.SendStringAsync(new StringMessage { Text = new string('é', size / 2) }));
        }

        yield return new("EchoBytes empty", async (f, s, p) => (await p.EchoBytesAsync(new BytesMessage { Data = [] })).Data.Length);
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
