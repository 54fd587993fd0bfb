namespace RpcCompare.Load;

/// <summary>The load every scenario applies.</summary>
/// <param name="Users">Virtual users of the closed model.</param>
/// <param name="Rate">Calls started per second in the open model.</param>
/// <param name="WarmUp">Calls in a closed loop (as many as the users) before a scenario's measured part, not counted; zero for none.</param>
/// <param name="Duration">The measured part of each scenario.</param>
internal sealed record LoadSettings(int Users, int Rate, TimeSpan WarmUp, TimeSpan Duration)
{
    // 48 scenarios (6 bindings × 4 operations × 2 models) in under 5 minutes: NBomber 4.1.2 spends
    // about 3 s finishing each session after its duration (measured: a 3-s scenario takes 6 s from
    // "Starting bombing" to "Calculating final statistics"), so 2 s of measurement fit, not more.
    public static LoadSettings Default { get; } = new(8, 200, TimeSpan.FromSeconds(0.5), TimeSpan.FromSeconds(2));

    public static LoadSettings Quick { get; } = new(4, 100, TimeSpan.Zero, TimeSpan.FromSeconds(1));
}
