using RpcCompare.Runner.Contracts;
using RpcCompare.Runner.Push;

namespace RpcCompare.Runner.Suites;

/// <summary>Every suite, in report order. Adding a suite is one line here.</summary>
internal static class SuiteCatalog
{
    public const string Default = "ops";

    public static IReadOnlyList<ISuite> All { get; } = [new OpsSuite(), new ShapesSuite(), new PayloadSuite(), new PingPongSuite(), new BreakEvenSuite(), new ScalingSuite(), new TuningSuite(), new PushSuite()];

    /// <summary>The suites <paramref name="names"/> asks for, in report order; the team's contracts (when given) last.</summary>
    /// <param name="names">Suite names from --suite.</param>
    /// <param name="contracts">The suite of the team's assembly given with --contracts; null without one.</param>
    public static IReadOnlyList<ISuite> Select(IEnumerable<string> names, ContractsSuite? contracts = null)
    {
        var selected = new List<ISuite>();
        foreach (var name in names)
        {
            if (name == ContractsSuite.SuiteName)
            {
                selected.Add(contracts ?? throw new ArgumentException("The contracts suite measures a team's service assembly: give it with --contracts PATH."));
                continue;
            }

            var suite = All.FirstOrDefault(s => s.Name == name)
                ?? throw new ArgumentException($"Unknown suite '{name}'. Suites: {string.Join(", ", All.Select(s => s.Name))}, {ContractsSuite.SuiteName} (with --contracts).");
            if (!selected.Contains(suite))
            {
                selected.Add(suite);
            }
        }

        return [.. All.Where(selected.Contains), .. selected.OfType<ContractsSuite>().Distinct()];
    }
}
