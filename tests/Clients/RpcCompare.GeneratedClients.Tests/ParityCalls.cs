using System.Security.Cryptography;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;

namespace RpcCompare.GeneratedClients.Tests;

/// <summary>
/// A call every generated client makes. The list is also handed to the Node.js tests as JSON
/// (with the outcome rpcc's client got), so both languages run the same cases.
/// </summary>
public sealed record ParityCall(string Name, string Operation, string? Path = null, long? Offset = null, int Repeat = 0, int Size = 0)
{
    /// <summary>
    /// What the reference outcome (rpcc's client) must contain, as compact JSON: the reference is
    /// checked before the generated clients are compared with it.
    /// </summary>
    [JsonIgnore]
    public string Expected { get; init; } = "";
}

public static class ParityCalls
{
    public static JsonSerializerOptions Json { get; } = new(JsonSerializerDefaults.Web) { DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull };

    /// <summary>Ping, ReadDirectory, WriteAt once and twice (and at an explicit 0), a 100 kB echo, and refused paths.</summary>
    public static IReadOnlyList<ParityCall> All { get; } =
    [
        new("Ping", "Ping") { Expected = """{"ok":true}""" },
        new("ReadDirectory files", "ReadDirectory", Path: "files") { Expected = """{"name":"entry-00000.txt","size":0,"isDirectory":false},{"name":"entry-00001.txt","size":10,""" },
        new("ReadDirectory refused escape", "ReadDirectory", Path: "../outside") { Expected = """{"error":"PathRefused"}""" },
        new("ReadDirectory missing", "ReadDirectory", Path: "no-such-directory") { Expected = """{"error":"NotFound"}""" },
        // 100 bytes (the default) in the middle of the seeded 1 MiB file.
        new("WriteAt k=1", "WriteAt", Repeat: 1) { Expected = "\"bytesWritten\":100,\"offset\":524238,\"fileLength\":1048576" },
        new("WriteAt k=2", "WriteAt", Repeat: 2) { Expected = "\"bytesWritten\":200,\"offset\":524238,\"fileLength\":1048576" },
        // Offset 0 equals protobuf's implicit default, but not the contract's (-1, the middle):
        // a generated client must still put it on the wire.
        new("WriteAt at offset 0", "WriteAt", Offset: 0, Repeat: 1) { Expected = "\"bytesWritten\":100,\"offset\":0," },
        new("WriteAt refused escape", "WriteAt", Path: "../victim", Repeat: 1) { Expected = """{"error":"PathRefused"}""" },
        new("EchoBytes 100 kB", "EchoBytes", Size: 100_000) { Expected = """{"length":100000,"sha256":""" },
    ];

    /// <summary>Runs <paramref name="call"/> through the reference client and checks its outcome is the right one.</summary>
    public static async Task<JsonNode> RunReferenceAsync(IParityClient reference, ParityCall call)
    {
        Assert.False(string.IsNullOrEmpty(call.Expected), $"{call.Name} says nothing about the outcome it expects.");
        var outcome = await RunAsync(reference, call);
        var json = outcome.ToJsonString();
        Assert.True(json.Contains(call.Expected, StringComparison.Ordinal), $"{call.Name}: the reference client got {(json.Length > 300 ? json[..300] + "..." : json)}; expected it to contain {call.Expected}.");
        if (call.Operation == "EchoBytes")
        {
            Assert.Equal(true, (bool?)outcome["sameAsSent"]);
        }

        return outcome;
    }

    /// <summary>The payload of a size; the Node tests build the same bytes (clients/node/test/parity.mjs).</summary>
    public static byte[] Payload(int size)
    {
        var data = new byte[size];
        for (var i = 0; i < size; i++)
        {
            data[i] = (byte)((i * 31 + 7) % 251);
        }

        return data;
    }

    /// <summary>Makes the call and describes its outcome as JSON: the result, or the refusal's error code.</summary>
    public static async Task<JsonNode> RunAsync(IParityClient client, ParityCall call)
    {
        try
        {
            object outcome = call.Operation switch
            {
                "Ping" => await Ping(client),
                "ReadDirectory" => new { entries = await client.ReadDirectoryAsync(call.Path!) },
                "WriteAt" => await client.WriteAtAsync(call.Path, call.Offset, call.Repeat),
                "EchoBytes" => await EchoAsync(client, Payload(call.Size)),
                _ => throw new ArgumentException($"Unknown operation {call.Operation}.", nameof(call)),
            };
            return JsonSerializer.SerializeToNode(outcome, Json)!;
        }
        catch (Exception exception) when (client.ErrorCodeOf(exception) is { } code)
        {
            return new JsonObject { ["error"] = code };
        }
    }

    private static async Task<object> Ping(IParityClient client)
    {
        await client.PingAsync();
        return new { ok = true };
    }

    private static async Task<object> EchoAsync(IParityClient client, byte[] sent)
    {
        var received = await client.EchoBytesAsync(sent);
        return new { length = received.Length, sha256 = Convert.ToHexString(SHA256.HashData(received)), sameAsSent = received.AsSpan().SequenceEqual(sent) };
    }
}
