using System.Globalization;
using RpcCompare.Contracts;

namespace RpcCompare.Service.Tests;

[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ProcessIoAccounting
{
    public const string Name = "process I/O accounting (nothing else runs)";
}

/// <summary>
/// The work a WriteAt does is what the break-even suite measures: k repeats must be k writes, not
/// k + 1. The file cannot tell (every repeat writes the same bytes at the same place), so this
/// counts the bytes the process hands to write(2) and friends (wchar in /proc/self/io), alone.
/// </summary>
[Collection(ProcessIoAccounting.Name)]
public sealed class WriteAtWorkTests : IDisposable
{
    private readonly DataRoot _root = DataRoot.Open(new DataRootOptions { SeedFileSize = 4096, SeedDirectoryEntries = 0 });

    public void Dispose() => _root.Dispose();

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    public async Task WriteAt_Repeated_WritesExactlyThatManyTimes(int repeat)
    {
        const int count = 200_000;
        var service = new FileService(_root);
        await service.WriteAtAsync(new WriteAtRequest { Count = count, Offset = 0 });

        var before = WrittenBytes();
        await service.WriteAtAsync(new WriteAtRequest { Count = count, Offset = 0, Repeat = repeat });
        var written = WrittenBytes() - before;

        // The test runner writes a little of its own meanwhile; a whole extra write is 200,000 bytes.
        Assert.InRange(written, (long)count * repeat, ((long)count * repeat) + (count / 2));
    }

    private static long WrittenBytes() =>
        long.Parse(File.ReadLines("/proc/self/io").Single(l => l.StartsWith("wchar:", StringComparison.Ordinal))["wchar:".Length..].Trim(), CultureInfo.InvariantCulture);
}
