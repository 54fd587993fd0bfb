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
/// <param name="Figures">
/// Its headline figures: by <see cref="Headline.Id"/>, then by binding (or, for push, by binding,
/// variant and row). Only the headlines the run has.
/// </param>
public sealed record RunSummary(
    string Id,
    string Kind,
    DateTimeOffset StartedUtc,
    string Machine,
    string? Commit,
    string What,
    double DurationSeconds,
    IReadOnlyList<RunLink> Links,
    IReadOnlyDictionary<string, IReadOnlyDictionary<string, HeadlineFigure>> Figures);

/// <summary>A report of a run, for the dashboard to link.</summary>
public sealed record RunLink(string Label, string Href);
