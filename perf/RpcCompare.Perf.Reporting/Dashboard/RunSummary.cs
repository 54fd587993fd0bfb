namespace RpcCompare.Perf.Reporting.Dashboard;

/// <summary>One run as the dashboard lists it: a runner run or a load run, with its headline figures per binding.</summary>
/// <param name="Id">The run's folder under results/ (its UTC start), plus "/load" for a load run.</param>
/// <param name="Kind">"runner" or "load".</param>
/// <param name="StartedUtc">When the run began.</param>
/// <param name="Machine">CPU model and logical CPUs.</param>
/// <param name="Commit">The commit measured ("-dirty" when the tree had changes), or null when the report predates the field.</param>
/// <param name="What">The run's scope in words: suites, or the load mode.</param>
/// <param name="DurationSeconds">How long the run took.</param>
/// <param name="Links">The run's reports, relative to results/.</param>
/// <param name="EmptyCallRate">Ping calls/s at one client (runner, ops suite), per binding.</param>
/// <param name="OverheadShare">ReadDirectory's overhead share (runner, ops suite), per binding.</param>
/// <param name="Capacity">Ping capacity within the latency budget (load --find-max), per binding.</param>
public sealed record RunSummary(
    string Id,
    string Kind,
    DateTimeOffset StartedUtc,
    string Machine,
    string? Commit,
    string What,
    double DurationSeconds,
    IReadOnlyList<RunLink> Links,
    IReadOnlyDictionary<string, double> EmptyCallRate,
    IReadOnlyDictionary<string, double> OverheadShare,
    IReadOnlyDictionary<string, double> Capacity);

/// <summary>A report of a run, for the dashboard to link.</summary>
public sealed record RunLink(string Label, string Href);
