using RpcCompare.Contracts;

namespace RpcCompare.Benchmarks;

/// <summary>The messages the serializer benchmarks encode: the shapes the runner's suites send.</summary>
public static class Messages
{
    public static readonly PingRequest PingRequest = new();

    public static readonly PingReply PingReply = new();

    public static readonly WriteAtRequest WriteAt = new() { Path = "data.bin", Count = 100, Offset = -1, Repeat = 2 };

    public static readonly ReadDirectoryReply Directory = new()
    {
        Entries = [.. Enumerable.Range(0, 100).Select(i => new DirectoryEntry { Name = $"entry-{i:D5}.txt", Size = i * 10, IsDirectory = i % 10 == 9, LastWriteTimeUtcTicks = 638_000_000_000_000_000 + i })],
    };

    public static readonly BytesMessage Bytes1K = new() { Data = new byte[1024] };

    public static readonly ReadDirectoryRequest ReadDirectoryRequest = new() { Path = "files" };

    public static readonly WriteAtReply WriteAtReply = new() { BytesWritten = 200, Offset = 524_238, FileLength = 1_048_576 };

    public static readonly IntMessage FortyOne = new() { Value = 41 };

    public static readonly PointMessage Point = new() { X = 1, Y = -2, Z = 3, Weight = 0.25 };

    public static readonly RecordsMessage Records1K = new()
    {
        Records = [.. Enumerable.Range(0, 1000).Select(i => new Rgba32 { R = (byte)i, G = (byte)(i >> 8), B = 7, A = 255 })],
    };

    public static readonly StringMessage Text1K = new() { Text = string.Concat(Enumerable.Repeat("héllo, wörld ", 77)) };

    public static readonly LengthReply Length = new() { Length = 10_000_000 };

    /// <summary>The refusal the file service sends most: a path that does not exist (FileService's wording).</summary>
    public static readonly RpcFault NotFound = new() { Code = RpcErrorCode.NotFound, Message = "File 'missing.bin' does not exist under the data root." };
}
