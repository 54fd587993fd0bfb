using RpcCompare.Contracts;

namespace RpcCompare.Benchmarks;

/// <summary>The messages the serializer benchmarks encode: the shapes the runner's suites send.</summary>
public static class Messages
{
    public static readonly WriteAtRequest WriteAt = new() { Path = "data.bin", Count = 100, Offset = -1, Repeat = 2 };

    public static readonly ReadDirectoryReply Directory = new()
    {
        Entries = [.. Enumerable.Range(0, 100).Select(i => new DirectoryEntry { Name = $"entry-{i:D5}.txt", Size = i * 10, IsDirectory = i % 10 == 9, LastWriteTimeUtcTicks = 638_000_000_000_000_000 + i })],
    };

    public static readonly BytesMessage Bytes1K = new() { Data = new byte[1024] };
}
