using RpcCompare.Contracts;
using RpcCompare.Service.Internal;

namespace RpcCompare.Service;

/// <summary>The file operations, confined to a <see cref="DataRoot"/>.</summary>
public sealed class FileService : IFileService
{
    /// <summary>Bytes written per repeat when the request leaves <see cref="WriteAtRequest.Count"/> at 0.</summary>
    public const int DefaultWriteCount = 100;

    /// <summary>Largest single write accepted; a bigger one is a payload test, not a file test.</summary>
    public const int MaxWriteCount = 16 * 1024 * 1024;

    /// <summary>Most repeats in one call: enough for a break-even sweep, bounded so one call cannot run away.</summary>
    public const int MaxRepeat = 100_000;

    private static readonly Task<PingReply> s_pingReply = Task.FromResult(new PingReply());
    private static readonly byte[] s_pattern = CreatePattern();
    private readonly DataRoot _root;

    public FileService(DataRoot root)
    {
        _root = root;
    }

    public Task<PingReply> PingAsync(PingRequest request) => s_pingReply;

    public Task<ReadDirectoryReply> ReadDirectoryAsync(ReadDirectoryRequest request)
    {
        Requests.Require(request);
        var path = _root.Files.Resolve(request.Path);
        // Listed through the directory held open, so what is listed is what was checked.
        var entries = _root.Files.ReadDirectory(path, List, out var isFile)
            ?? throw (isFile
                ? new RpcServiceException(RpcErrorCode.InvalidArgument, $"'{request.Path}' is a file, not a directory.")
                : new RpcServiceException(RpcErrorCode.NotFound, $"Directory '{request.Path}' does not exist under the data root."));
        entries.Sort(static (a, b) => string.CompareOrdinal(a.Name, b.Name));
        return Task.FromResult(new ReadDirectoryReply { Entries = [.. entries] });
    }

    private static List<DirectoryEntry> List(DirectoryInfo directory)
    {
        var entries = new List<DirectoryEntry>();
        foreach (var info in directory.EnumerateFileSystemInfos())
        {
            // A symlink is listed as itself, never followed: its target may be outside the root
            // (its size and time are not ours to tell) or missing.
            if (info.Attributes.HasFlag(FileAttributes.ReparsePoint))
            {
                entries.Add(new DirectoryEntry { Name = info.Name });
                continue;
            }

            var isDirectory = info is DirectoryInfo;
            entries.Add(new DirectoryEntry
            {
                Name = info.Name,
                Size = isDirectory ? 0 : ((FileInfo)info).Length,
                IsDirectory = isDirectory,
                LastWriteTimeUtcTicks = info.LastWriteTimeUtc.Ticks,
            });
        }

        return entries;
    }

    public async Task<WriteAtReply> WriteAtAsync(WriteAtRequest request)
    {
        Requests.Require(request);
        var given = request.Data is { Length: > 0 } ? request.Data : null;
        var count = given?.Length ?? (request.Count == 0 ? DefaultWriteCount : request.Count);
        var repeat = request.Repeat == 0 ? 1 : request.Repeat;
        if (count is < 1 or > MaxWriteCount)
        {
            throw new RpcServiceException(RpcErrorCode.InvalidArgument, $"Count must be between 1 and {MaxWriteCount}; got {request.Count}.");
        }

        if (repeat is < 1 or > MaxRepeat)
        {
            throw new RpcServiceException(RpcErrorCode.InvalidArgument, $"Repeat must be between 1 and {MaxRepeat}; got {request.Repeat}.");
        }

        var relative = string.IsNullOrEmpty(request.Path) ? DataRoot.DefaultFileName : request.Path;
        var path = _root.Files.Resolve(relative);

        // Stryker disable once Equality,Conditional : CreateData makes the same bytes for any count; the branch only saves an allocation
        var data = given ?? (count <= s_pattern.Length ? s_pattern.AsMemory(0, count) : CreateData(count));
        long offset = 0;
        long length = 0;
        for (var i = 0; i < repeat; i++)
        {
            // Open, write, close per repeat: each repeat is one whole file write, the unit of real
            // work the original "write to a file twice" measurement counted.
            using var handle = _root.Files.OpenFile(path, FileAccess.ReadWrite, out _)
                ?? throw new RpcServiceException(RpcErrorCode.NotFound, $"File '{relative}' does not exist under the data root.");
            length = RandomAccess.GetLength(handle);
            offset = ResolveOffset(request.Offset, count, length);
            await RandomAccess.WriteAsync(handle, data, offset);
            length = Math.Max(length, offset + count);
        }

        return new WriteAtReply { BytesWritten = (long)count * repeat, Offset = offset, FileLength = length };
    }

    private static long ResolveOffset(long? given, int count, long length)
    {
        // Not given or negative: the middle of the file (WriteAtRequest.Offset).
        if (given is not { } requested || requested < 0)
        {
            return Math.Max(0, (length - count) / 2);
        }

        if (requested > length)
        {
            throw new RpcServiceException(RpcErrorCode.InvalidArgument, $"Offset {requested} is past the end of the file ({length} bytes).");
        }

        return requested;
    }

    private static byte[] CreatePattern()
    {
        var pattern = new byte[4096];
        for (var i = 0; i < pattern.Length; i++)
        {
            pattern[i] = (byte)('a' + (i % 26));
        }

        return pattern;
    }

    private static byte[] CreateData(int count)
    {
        var data = new byte[count];
        // Stryker disable once Equality : one more turn at i == count copies nothing
        for (var i = 0; i < count; i += s_pattern.Length)
        {
            s_pattern.AsSpan(0, Math.Min(s_pattern.Length, count - i)).CopyTo(data.AsSpan(i));
        }

        return data;
    }
}
