namespace RpcCompare.Load.Capacity;

/// <summary>How --find-max searches for a binding's capacity.</summary>
/// <param name="LatencyBudgetMs">A step holds only while p99 stays at or under this.</param>
/// <param name="Step">How long each rate is held.</param>
/// <param name="StartRate">The first rate tried, in calls per second; doubled while steps hold.</param>
/// <param name="MaxRate">The search stops here even when it still holds (the load generator's own limit on this machine).</param>
/// <param name="Precision">Bisection stops when the gap between the rate that held and the one that did not is at most this share of the former.</param>
internal sealed record CapacitySettings(double LatencyBudgetMs, TimeSpan Step, int StartRate, int MaxRate, double Precision)
{
    /// <summary>Calls that must complete in a step, as a share of the rate times the step: the rate was really carried, not queued.</summary>
    public const double DeliveredShare = 0.95;

    /// <summary>The lowest rate tried when even the start rate does not hold.</summary>
    public const int MinRate = 10;

    public static CapacitySettings Default { get; } = new(10, TimeSpan.FromSeconds(2), 1_000, 256_000, 0.10);

    public static CapacitySettings Quick { get; } = new(10, TimeSpan.FromSeconds(1), 1_000, 16_000, 0.25);
}
