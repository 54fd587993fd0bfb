namespace RpcCompare.Perf.Reporting.Dashboard;

/// <summary>A figure the dashboard lists for each run that has it and charts across runs, one line per binding.</summary>
/// <param name="Id">Its key in <see cref="RunSummary.Figures"/> and in the page's data.</param>
/// <param name="Label">How the run table names it.</param>
/// <param name="ChartTitle">The chart's title: the figure, its unit and where it comes from.</param>
/// <param name="Logarithmic">Chart it on a log scale (rates: the in-process call is orders of magnitude above the rest).</param>
public sealed record Headline(string Id, string Label, string ChartTitle, bool Logarithmic);

/// <summary>One headline figure of one binding in one run.</summary>
/// <param name="Value">What the chart plots, in the chart's unit; null when there is nothing to plot (none held, never recovered, no successful call): a gap in the chart, the table says why.</param>
/// <param name="Text">What the run table shows, with whatever qualifies the value (≥ at a search's ceiling, failures, p99).</param>
public sealed record HeadlineFigure(double? Value, string Text);

/// <summary>Every headline, in the order the page shows them: the runner's, the push suite's, then the load command's.</summary>
public static class Headlines
{
    public static Headline EmptyCallRate { get; } = new("emptyCallRate", "Ping calls/s",
        "Empty-call rate: Ping calls/s at one client (runner, ops suite)", Logarithmic: true);

    public static Headline OverheadShare { get; } = new("overheadShare", "ReadDirectory overhead",
        "Overhead share of ReadDirectory, % (runner, ops suite)", Logarithmic: false);

    public static Headline BroadcastMax { get; } = new("broadcastMax", "Broadcast max M",
        "Broadcast: the most subscribers every burst reached before the next was due (runner, push suite)", Logarithmic: false);

    public static Headline CollaborationLatency { get; } = new("collaborationLatency", "Collaboration latency",
        "Collaboration: mean publish-to-receive latency, ms, per push variant and row (runner, push suite)", Logarithmic: false);

    public static Headline Capacity { get; } = new("capacity", "Ping capacity/s",
        "Capacity: Ping calls/s held with p99 within the budget (load --find-max)", Logarithmic: true);

    public static Headline Throughput { get; } = new("throughput", "Ping throughput/s, closed model",
        "Throughput: Ping calls/s of the closed model's virtual users (load scenarios)", Logarithmic: true);

    public static Headline SoakLatency { get; } = new("soakP99", "Soak p99",
        "Soak: p99 latency, ms, at the soak's fixed rate (load --soak)", Logarithmic: false);

    public static Headline Recovery { get; } = new("recovery", "Recovery after kill -9",
        "Kill -9 of the host: seconds from the kill to the first successful call (load --chaos kill-host)", Logarithmic: false);

    public static IReadOnlyList<Headline> All { get; } =
        [EmptyCallRate, OverheadShare, BroadcastMax, CollaborationLatency, Capacity, Throughput, SoakLatency, Recovery];
}

/// <summary>Collects a run's headline figures; the first figure for a headline and key wins.</summary>
internal sealed class RunFiguresBuilder
{
    private readonly Dictionary<string, Dictionary<string, HeadlineFigure>> _figures = new(StringComparer.Ordinal);

    public void Add(Headline headline, string key, HeadlineFigure figure)
    {
        if (key.Length == 0)
        {
            return;
        }

        if (!_figures.TryGetValue(headline.Id, out var byKey))
        {
            _figures[headline.Id] = byKey = new(StringComparer.Ordinal);
        }

        byKey.TryAdd(key, figure);
    }

    public IReadOnlyDictionary<string, IReadOnlyDictionary<string, HeadlineFigure>> ToDictionary() =>
        _figures.ToDictionary(f => f.Key, f => (IReadOnlyDictionary<string, HeadlineFigure>)f.Value, StringComparer.Ordinal);
}
