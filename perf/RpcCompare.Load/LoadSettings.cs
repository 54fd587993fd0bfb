namespace RpcCompare.Load;

/// <summary>The load every scenario applies.</summary>
/// <param name="Users">Virtual users of the closed model.</param>
/// <param name="Rate">Calls started per second in the open model.</param>
/// <param name="WarmUp">Calls in a closed loop (as many as the users) before a scenario's measured part, not counted; zero for none.</param>
/// <param name="Duration">The measured part of each scenario.</param>
/// <param name="Ramp">Load rising linearly from zero before <paramref name="Duration"/> (NBomber's ramping simulations); part of NBomber's statistics, as it is load too. Zero for none.</param>
internal sealed record LoadSettings(int Users, int Rate, TimeSpan WarmUp, TimeSpan Duration, TimeSpan Ramp = default)
{
    /// <summary>How long a scenario loads the binding: ramp, then duration.</summary>
    public TimeSpan Span => Ramp + Duration;

    // NBomber 4.1.2 waits 3 s after every session's load before its final statistics
    // (ReportingManager.stop awaits Constants.ReportingManagerStartDelay, a constant with no
    // setting): one session per binding, scenarios one after another inside it, pays that once
    // per binding. 48 scenarios of 2 s: about 2.5 minutes.
    public static LoadSettings Default { get; } = new(8, 200, TimeSpan.FromSeconds(0.5), TimeSpan.FromSeconds(2));

    public static LoadSettings Quick { get; } = new(4, 100, TimeSpan.Zero, TimeSpan.FromSeconds(1));
}
