using RpcCompare.Runner.Push;

namespace RpcCompare.Runner.Suites;

/// <summary>Every suite, in report order. Adding a suite is one line here.</summary>
internal static class SuiteCatalog
{
    public const string Default = "ops";

    public static IReadOnlyList<ISuite> All { get; } = [new OpsSuite(), new ShapesSuite(), new PayloadSuite(), new PingPongSuite(), new BreakEvenSuite(), new ScalingSuite(), new TuningSuite(), new PushSuite()];

    public static IReadOnlyList<ISuite> Select(IEnumerable<string> names)
    {
        var selected = new List<ISuite>();
        foreach (var name in names)
        {
            var suite = All.FirstOrDefault(s => s.Name == name)
                ?? throw new ArgumentException($"Unknown suite '{name}'. Suites: {string.Join(", ", All.Select(s => s.Name))}.");
            if (!selected.Contains(suite))
            {
                selected.Add(suite);
            }
        }

        return [.. All.Where(selected.Contains)];
    }
}
