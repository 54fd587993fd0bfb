using RpcCompare.Contracts;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Suites;

/// <summary>
/// Sweeps the real work inside one call, so the report can say at what work time per call a
/// binding's overhead share falls below 10% and 1%.
/// </summary>
internal sealed class BreakEvenSuite : ISuite
{
    public const string WritesSweep = "WriteAt, writes per call k";
    public const string DirectorySweep = "ReadDirectory, entries n";

    public static readonly int[] Writes = [1, 4, 16, 64, 256];
    public static readonly int[] DirectoryEntries = [10, 100, 1_000, 10_000];

    public string Name => "breakeven";

    public string Description => "WriteAt with k = 1..256 writes per call and ReadDirectory of 10..10,000 entries: where the overhead share falls below 10% and 1%.";

    public static string DirectoryFor(int entries) => $"breakeven/dir-{entries}";

    public void Prepare(string dataRoot)
    {
        foreach (var entries in DirectoryEntries)
        {
            var directory = Path.Combine(dataRoot, DirectoryFor(entries));
            if (Directory.Exists(directory) && Directory.EnumerateFileSystemEntries(directory).Count() == entries)
            {
                continue;
            }

            Directory.CreateDirectory(directory);
            for (var i = 0; i < entries; i++)
            {
                File.WriteAllBytes(Path.Combine(directory, $"f{i:D5}"), []);
            }
        }
    }

    public IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets)
    {
        foreach (var target in targets)
        {
            foreach (var k in Writes)
            {
                yield return new(Name, WritesSweep, target, k, 100L * k, s =>
                {
                    var files = s.Get<IFileService>();
                    var request = new WriteAtRequest { Repeat = k };
                    return () => files.WriteAtAsync(request);
                });
            }

            foreach (var entries in DirectoryEntries)
            {
                yield return new(Name, DirectorySweep, target, entries, 0, s =>
                {
                    var files = s.Get<IFileService>();
                    var request = new ReadDirectoryRequest { Path = DirectoryFor(entries) };
                    return () => files.ReadDirectoryAsync(request);
                });
            }
        }
    }
}
