using System.Globalization;
using RpcCompare.Perf.Reporting;

namespace RpcCompare.Load.Reporting;

/// <summary>
/// What TLS and mutual TLS cost under load (--security): each secured row ("grpc-tcp/tls") over the
/// plaintext row of the same binding, operation and model in the same run.
/// </summary>
internal static class SecurityCost
{
    private static readonly CultureInfo s_culture = CultureInfo.InvariantCulture;

    /// <summary>The paired ratios of a run's scenario results; null when the run measured one mode only.</summary>
    public static Table? OfResults(IReadOnlyList<LoadResult> results)
    {
        var rows = (from secured in results
                    let split = Split(secured.Binding)
                    where split is not null
                    let plain = results.SingleOrDefault(r => r.Binding == split.Value.Binding && r.Operation == secured.Operation && r.Model == secured.Model)
                    where plain is not null
                    select (IReadOnlyList<string>)
                    [
                        split.Value.Binding, split.Value.Mode, secured.Operation, plain.Load,
                        Ratio(secured.RequestsPerSecond, plain.RequestsPerSecond), Ratio(secured.Latency.P50, plain.Latency.P50), Ratio(secured.Latency.P99, plain.Latency.P99),
                    ]).ToList();
        return rows.Count == 0
            ? null
            : new Table(
                "The cost of security: each secured run over the plaintext run of the same binding, operation and load",
                ["binding", "security", "operation", "load", "calls/s ratio", "p50 ratio", "p99 ratio"],
                rows,
                "A calls/s ratio below 1 and latency ratios above 1 are what TLS costs. The modes ran one after the other, each against a host of its own; " +
                "on a shared machine compare them within one run, not across runs.");
    }

    /// <summary>The paired ratios of a run's capacities; null when the run measured one mode only.</summary>
    public static Table? OfCapacities(IReadOnlyList<Capacity.CapacityResult> capacities)
    {
        var rows = (from secured in capacities
                    let split = Split(secured.Binding)
                    where split is not null
                    let plain = capacities.SingleOrDefault(c => c.Binding == split.Value.Binding && c.Operation == secured.Operation)
                    where plain is not null
                    select (IReadOnlyList<string>)
                    [
                        split.Value.Binding, split.Value.Mode, secured.Operation,
                        secured.Capacity is { } s && plain.Capacity is { } p ? Ratio(s, p) + (secured.ReachedCeiling || plain.ReachedCeiling ? " (a ceiling was reached)" : "") : "–",
                    ]).ToList();
        return rows.Count == 0
            ? null
            : new Table("The cost of security: capacity of each secured run over the plaintext run's", ["binding", "security", "operation", "capacity ratio"], rows);
    }

    private static (string Binding, string Mode)? Split(string label) =>
        label.IndexOf('/', StringComparison.Ordinal) is var slash and > 0 ? (label[..slash], label[(slash + 1)..]) : null;

    private static string Ratio(double secured, double plain) => plain > 0 ? (secured / plain).ToString("0.00", s_culture) : "–";
}
