using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Suites;

/// <summary>One table of the comparison: a set of operations measured over every binding target.</summary>
internal interface ISuite
{
    /// <summary>The name --suite takes.</summary>
    string Name { get; }

    /// <summary>What the suite shows, one sentence, for --help and the reports.</summary>
    string Description { get; }

    /// <summary>Creates what the suite's operations need under the data root.</summary>
    void Prepare(string dataRoot)
    {
    }

    /// <summary>
    /// Knobs whose columns the suite measures beside the bindings' own, each for the bindings it
    /// applies to; their targets reach <see cref="Workloads"/> with the bindings' targets.
    /// </summary>
    IReadOnlyList<VariantUse> Variants => [];

    IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets);
}

/// <summary>A knob a suite measures, on the bindings it applies to.</summary>
internal sealed record VariantUse(BindingVariant Variant, IReadOnlySet<string> Bindings);
