namespace RpcCompare.Load;

/// <summary>The load every scenario applies.</summary>
/// <param name="Users">Virtual users of the closed model.</param>
/// <param name="Rate">Calls started per second in the open model.</param>
/// <param name="WarmUp">NBomber's warm-up before a scenario's measured part; zero for none.</param>
/// <param name="Duration">The measured part of each scenario.</param>
internal sealed record LoadSettings(int Users, int Rate, TimeSpan WarmUp, TimeSpan Duration)
{
    public static LoadSettings Default { get; } = new(8, 200, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(3));

    public static LoadSettings Quick { get; } = new(4, 100, TimeSpan.Zero, TimeSpan.FromSeconds(1));
}
