namespace RpcCompare.Load.Capacity;

/// <summary>One binding and operation's capacity: the highest rate that held, and every step that led there.</summary>
/// <param name="Binding">The binding loaded.</param>
/// <param name="Operation">The operation called.</param>
/// <param name="Capacity">Calls per second that held for a whole step (p99 within budget, no failure, all delivered); null when not even the lowest rate held.</param>
/// <param name="ReachedCeiling">The search stopped at its ceiling with the rate still holding: the capacity is at least this.</param>
/// <param name="Limit">What broke the first rate above the capacity, or why the search stopped.</param>
/// <param name="Steps">Every step, in the order run.</param>
/// <param name="FirstError">The first failed call's error, or null.</param>
/// <param name="ReportFolder">NBomber's reports of the steps, a folder per rate.</param>
internal sealed record CapacityResult(
    string Binding,
    string Operation,
    int? Capacity,
    bool ReachedCeiling,
    string Limit,
    IReadOnlyList<CapacityStep> Steps,
    string? FirstError,
    string ReportFolder)
{
    /// <summary>The step at the capacity, whose percentiles the report shows beside it.</summary>
    public CapacityStep? AtCapacity => Steps.LastOrDefault(s => s.Held && s.Rate == Capacity);
}
