namespace RpcCompare.Runner.Push;

/// <summary>One collaboration row: <paramref name="Rooms"/> topics of <paramref name="Members"/> subscribers, each room idle <paramref name="IntervalSeconds"/> after each publication.</summary>
internal sealed record CollaborationRow(int Rooms, int Members, double IntervalSeconds)
{
    public string Label => $"{Rooms:#,0} × {Members} at {IntervalSeconds:0.##} s";
}

/// <summary>
/// How the push suite measures: the broadcast search (the original's method: M subscribers, a
/// publication every period, the largest M for which every burst of a run completes before the
/// next is due) and the collaboration rows.
/// </summary>
/// <param name="Mode">"quick", "default" or "full", for the report.</param>
/// <param name="FirstSubscribers">The first M tried; each later step doubles it up to <paramref name="MaxSubscribers"/>.</param>
/// <param name="MaxSubscribers">The largest M tried: the search stops there, reported as "≥ M".</param>
/// <param name="BisectSteps">Steps between the last M that held and the first that did not.</param>
/// <param name="Bursts">Consecutive bursts that must each complete in time for M to hold (the original: 100).</param>
/// <param name="PeriodSeconds">Time between publications, the deadline of each burst (the original: 10 s).</param>
/// <param name="Rows">The collaboration rows.</param>
/// <param name="Iterations">Publications per room in each collaboration row (the original: at least 100).</param>
/// <param name="ConfirmBursts">
/// When more than <paramref name="Bursts"/>: the M the search found runs again for this many
/// consecutive bursts (the original's 100), and only then counts; if it fails, the next smaller Ms
/// that held in the search are tried the same way, up to two. 0: the search's M stands.
/// </param>
/// <param name="SubscribersPerAgent">Subscribers one agent process holds: each is a connection, and a process may open 20,000 files here.</param>
internal sealed record PushSettings(
    string Mode,
    int FirstSubscribers,
    int MaxSubscribers,
    int BisectSteps,
    int Bursts,
    double PeriodSeconds,
    IReadOnlyList<CollaborationRow> Rows,
    int Iterations,
    int ConfirmBursts = 0,
    int SubscribersPerAgent = 4_000)
{
    /// <summary>A smoke run for tests and --quick: every table, tiny numbers.</summary>
    public static PushSettings Quick { get; } = new("quick", 5, 10, 0, 3, 0.3, [new(4, 2, 0.2)], 3, ConfirmBursts: 5);

    /// <summary>
    /// Minutes per binding on 2 cores: 10 bursts a step at 1 s (not the original's 10 s), up to the
    /// issue's goal of 10,000 subscribers, the M found confirmed over the original's 100 consecutive
    /// bursts; the collaboration goal row (2,000 rooms × 2 every second) and 100 × 5, both at 1 s
    /// rather than the original's 15 s, with the original's 100 publications per room.
    /// </summary>
    public static PushSettings Default { get; } = new("default", 250, 10_000, 2, 10, 1, [new(100, 5, 1), new(2_000, 2, 1)], 100, ConfirmBursts: 100);

    /// <summary>The original method: 100 bursts a step, and the original collaboration table at its intervals, 100 publications per room.</summary>
    public static PushSettings Full { get; } = new("full", 250, 20_000, 3, 100, 1,
        [new(100, 5, 1), new(500, 2, 15), new(500, 3, 15), new(800, 3, 15), new(1_000, 2, 5), new(1_000, 2, 15), new(2_000, 2, 15)], 100);

    /// <summary>The settings a run asks for: its mode, with the broadcast search's ceiling replaced when <paramref name="maxSubscribers"/> is given.</summary>
    public static PushSettings For(bool quick, bool full, int? maxSubscribers)
    {
        var settings = quick ? Quick : full ? Full : Default;
        return maxSubscribers is { } ceiling
            ? settings with { MaxSubscribers = ceiling, FirstSubscribers = Math.Min(settings.FirstSubscribers, ceiling) }
            : settings;
    }

    /// <summary>Bursts of the confirmation run, 0 when the search's own runs are long enough.</summary>
    public int Confirmations => ConfirmBursts > Bursts ? ConfirmBursts : 0;

    /// <summary>Roughly how long the suite takes per push target, for the progress bar.</summary>
    public double PlannedSecondsPerTarget =>
        (((Math.Ceiling(Math.Log2(Math.Max(1.0, (double)MaxSubscribers / FirstSubscribers))) + 1 + BisectSteps) * Bursts) + Confirmations) * PeriodSeconds
        + Rows.Sum(r => (Iterations + 1) * r.IntervalSeconds);
}
