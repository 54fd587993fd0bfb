using NBomber.Contracts;

namespace RpcCompare.Load.Scenarios;

/// <summary>How load is applied: NBomber's closed model (fixed users) or open model (fixed arrival rate).</summary>
internal enum LoadModel
{
    /// <summary>K virtual users, each calling again as soon as its call returns.</summary>
    Closed,

    /// <summary>A fixed number of calls started every second, whether earlier ones have returned or not.</summary>
    Open,
}

internal static class LoadModels
{
    public static string Name(this LoadModel model) => model == LoadModel.Closed ? "closed" : "open";

    public static LoadModel Parse(string name) => name switch
    {
        "closed" => LoadModel.Closed,
        "open" => LoadModel.Open,
        _ => throw new ArgumentException($"Unknown model '{name}'. Models: closed, open."),
    };

    public static LoadSimulation Simulation(this LoadModel model, LoadSettings settings) => model == LoadModel.Closed
        ? NBomber.CSharp.Simulation.KeepConstant(settings.Users, settings.Duration)
        : NBomber.CSharp.Simulation.Inject(settings.Rate, TimeSpan.FromSeconds(1), settings.Duration);

    public static string Describe(this LoadModel model, LoadSettings settings) => model == LoadModel.Closed
        ? $"closed model: {settings.Users} virtual users calling in a loop"
        : $"open model: {settings.Rate} calls started per second";
}
