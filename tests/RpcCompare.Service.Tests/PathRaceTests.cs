using System.Collections.Concurrent;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using RpcCompare.Contracts;
using RpcCompare.Testing;
using Xunit.Abstractions;

namespace RpcCompare.Service.Tests;

/// <summary>
/// The check-then-open race, run: a thread keeps swapping names in the data root between a real
/// directory, a symlink to a directory inside and a symlink to a directory outside, while reads,
/// writes, listings and uploads go through the services. The guard's check refuses the outside
/// link when it sees it; the race is the real directory it checked turning into that link before
/// the open. Nothing may be read, listed, written or created outside.
/// </summary>
/// <remarks>
/// The swaps are atomic exchanges (renameat2 RENAME_EXCHANGE), so a name is never missing and the
/// upload never makes a fresh "uploads" of its own. The run is bounded by time and by count; no
/// assertion is about time. It needs Linux (renameat2, and the race-free open is Linux's).
/// </remarks>
public sealed partial class PathRaceTests : IDisposable
{
    private const string OutsideSecret = "OUTSIDE-SECRET";
    private const string InsideContent = "inside-content";
    private const string Marker = "outside-only.marker";
    private const int MaxRounds = 200_000;
    private const int AtCurrentDirectory = -100;
    private const uint RenameExchange = 2;
    private static readonly byte[] s_written = "WRITTEN-BY-RPC"u8.ToArray();
    private static readonly TimeSpan s_runFor = TimeSpan.FromSeconds(3);
    private static readonly TimeSpan s_atMost = TimeSpan.FromSeconds(30);

    private readonly TemporaryDirectory _outside = new("rpccompare-outside-");
    private readonly DataRoot _root = DataRoot.Open(new DataRootOptions { SeedFileSize = 16, SeedDirectoryEntries = 1 });
    private readonly ITestOutputHelper _output;

    public PathRaceTests(ITestOutputHelper output)
    {
        _output = output;
    }

    public void Dispose()
    {
        _root.Dispose();
        _outside.Dispose();
    }

    [Fact]
    public async Task SwappingSymlinks_RacedAgainstReadsWritesListingsAndUploads_NeverLeadOutOfTheRoot()
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        // Outside: a secret to read, a target to overwrite, a marker a listing would show, a drop for uploads.
        File.WriteAllText(_outside.PathFor("secret.txt"), OutsideSecret);
        File.WriteAllText(_outside.PathFor("target.bin"), OutsideSecret);
        File.WriteAllText(_outside.PathFor(Marker), "");
        Directory.CreateDirectory(_outside.PathFor("drop"));
        var outsideBefore = Snapshot(_outside.FullPath);

        // Inside: "door" a real directory, with "door.out" -> outside and "door.in" -> "inner" to
        // exchange with; "uploads" a real directory with "uploads.out" -> the outside drop.
        foreach (var directory in new[] { "door", "inner", FileTransferService.UploadsDirectoryName })
        {
            Directory.CreateDirectory(InRoot(directory));
        }

        foreach (var file in new[] { "door/secret.txt", "door/target.bin", "inner/secret.txt", "inner/target.bin" })
        {
            File.WriteAllText(InRoot(file), InsideContent);
        }

        Directory.CreateSymbolicLink(InRoot("door.out"), _outside.FullPath);
        Directory.CreateSymbolicLink(InRoot("door.in"), InRoot("inner"));
        Directory.CreateSymbolicLink(InRoot("uploads.out"), _outside.PathFor("drop"));

        var files = new FileService(_root);
        var transfers = new FileTransferService(_root);
        var tally = new Tally();
        using var stop = new CancellationTokenSource();
        var swaps = 0L;
        Exception? swapFailure = null;
        var swapper = new Thread(() =>
        {
            try
            {
                while (!stop.IsCancellationRequested)
                {
                    // door cycles through real, outside link, inside link; uploads through real and outside link.
                    Exchange("door", (swaps & 1) == 0 ? "door.out" : "door.in");
                    Exchange(FileTransferService.UploadsDirectoryName, "uploads.out");
                    swaps++;
                }
            }
            catch (IOException error)
            {
                swapFailure = error;
            }
        })
        { IsBackground = true, Name = "symlink swapper" };
        swapper.Start();

        var clock = Stopwatch.StartNew();
        var rounds = 0;
        try
        {
            // Past the run time, on until every operation has met both states (a slow machine),
            // but never past the hard bound.
            while (rounds < MaxRounds && clock.Elapsed < s_atMost && (clock.Elapsed < s_runFor || !tally.EveryKindSawBoth) && swapper.IsAlive)
            {
                rounds++;
                await tally.RunAsync("read", async () =>
                {
                    await using var stream = await transfers.DownloadAsync(new DownloadRequest { Path = "door/secret.txt" });
                    using var reader = new StreamReader(stream, Encoding.UTF8);
                    return await reader.ReadToEndAsync() != OutsideSecret;
                });
                await tally.RunAsync("write", async () =>
                {
                    await files.WriteAtAsync(new WriteAtRequest { Path = "door/target.bin", Data = s_written, Offset = 0 });
                    if (File.ReadAllText(_outside.PathFor("target.bin")) == OutsideSecret)
                    {
                        return true;
                    }

                    // Put it back, so each escaped write is counted, and the end state shows none of them.
                    File.WriteAllText(_outside.PathFor("target.bin"), OutsideSecret);
                    return false;
                });
                await tally.RunAsync("list", async () =>
                {
                    var reply = await files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "door" });
                    return !reply.Entries.Any(e => e.Name == Marker);
                });
                await tally.RunAsync("upload", async () =>
                {
                    // Left where they land: deleting by path could go through the swapped link.
                    var reply = await transfers.UploadAsync(new MemoryStream([1, 2, 3]));
                    return !File.Exists(Path.Combine(_outside.PathFor("drop"), Path.GetFileName(reply.Path)));
                });
            }
        }
        finally
        {
            await stop.CancelAsync();
            swapper.Join();
        }

        Assert.Null(swapFailure);
        var outsideAfter = Snapshot(_outside.FullPath);
        var summary = $"{rounds} rounds, {swaps} swaps; {tally}; outside before [{string.Join(", ", outsideBefore)}] after [{string.Join(", ", outsideAfter)}]";
        _output.WriteLine(summary);
        Assert.True(tally.Escapes == 0, "Escaped the data root: " + summary);
        Assert.Equal(outsideBefore, outsideAfter);
        // The names never go missing (the swaps are exchanges), so a swap is met as a refusal or not at all.
        Assert.True(tally.Others == 0, "A swap was answered with something other than a refusal: " + summary);
        Assert.True(tally.EveryKindSawBoth, "The race did not exercise both states of every operation: " + summary);
    }

    private string InRoot(string relative) => Path.Combine(_root.FullPath, relative);

    private void Exchange(string a, string b)
    {
        if (RenameAt2(AtCurrentDirectory, InRoot(a), AtCurrentDirectory, InRoot(b), RenameExchange) != 0)
        {
            throw new IOException($"renameat2 RENAME_EXCHANGE {a} {b}: {Marshal.GetPInvokeErrorMessage(Marshal.GetLastPInvokeError())}");
        }
    }

    // Every file and directory below the outside directory, with each file's content.
    private static string[] Snapshot(string directory) =>
        [.. Directory.EnumerateFileSystemEntries(directory, "*", SearchOption.AllDirectories)
            .Select(path => Directory.Exists(path) ? path + "/" : $"{path} = {File.ReadAllText(path)}")
            .Order(StringComparer.Ordinal)];

    [LibraryImport("libc", EntryPoint = "renameat2", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int RenameAt2(int oldDirectory, string oldPath, int newDirectory, string newPath, uint flags);

    /// <summary>Outcomes per operation: done inside, refused by the path rules, escaped, or otherwise failed.</summary>
    private sealed class Tally
    {
        private static readonly string[] s_kinds = ["read", "write", "list", "upload"];
        private static readonly string[] s_expected = ["inside", "refused", "refused at the open", "escaped"];
        private readonly ConcurrentDictionary<string, int> _counts = new();
        private readonly ConcurrentDictionary<string, string> _messages = new();

        public int Escapes => s_kinds.Sum(kind => Count(kind, "escaped"));

        /// <summary>Outcomes other than done inside, refused, escaped: NotFound, an IOException.</summary>
        public int Others => _counts.Where(p => !s_expected.Any(e => p.Key.EndsWith(" " + e, StringComparison.Ordinal))).Sum(p => p.Value);

        public bool EveryKindSawBoth => s_kinds.All(kind => Count(kind, "inside") > 0 && Count(kind, "refused") > 0);

        /// <summary>Runs one operation; it returns false when what it got came from outside.</summary>
        public async Task RunAsync(string kind, Func<Task<bool>> operation)
        {
            string outcome;
            try
            {
                outcome = await operation() ? "inside" : "escaped";
            }
            catch (RpcServiceException error) when (error.Code == RpcErrorCode.PathRefused)
            {
                outcome = "refused";
                if (error.Message.Contains("while it was being opened", StringComparison.Ordinal))
                {
                    // Not asserted (it is luck): the check passed and the open met the swap.
                    _counts.AddOrUpdate($"{kind} refused at the open", 1, static (_, n) => n + 1);
                }
            }
            catch (Exception error) when (error is RpcServiceException or IOException or UnauthorizedAccessException)
            {
                // No escape, but not an answer a swap should give either: counted, and its first message kept.
                outcome = error is RpcServiceException rpc ? rpc.Code.ToString() : error.GetType().Name;
                _messages.TryAdd($"{kind} {outcome}", error.Message);
            }

            _counts.AddOrUpdate($"{kind} {outcome}", 1, static (_, n) => n + 1);
        }

        public override string ToString() =>
            string.Join(", ", _counts.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => $"{p.Key}: {p.Value}"))
            + string.Concat(_messages.Select(p => $"; first {p.Key}: {p.Value}"));

        private int Count(string kind, string outcome) => _counts.GetValueOrDefault($"{kind} {outcome}");
    }
}
