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

    /// <summary>The model's load for a scenario: the ramp (when there is one), then the steady part.</summary>
    public static LoadSimulation[] Simulation(this LoadModel model, LoadSettings settings)
    {
        var steady = model == LoadModel.Closed
            ? NBomber.CSharp.Simulation.KeepConstant(settings.Users, settings.Duration)
            : OpenSimulation(settings.Rate, settings.Duration);
        if (settings.Ramp <= TimeSpan.Zero)
        {
            return [steady];
        }

        var perInterval = CallsPerInterval(settings.Rate);
        return
        [
            model == LoadModel.Closed
                ? NBomber.CSharp.Simulation.RampingConstant(settings.Users, settings.Ramp)
                : NBomber.CSharp.Simulation.RampingInject(perInterval, TimeSpan.FromSeconds((double)perInterval / settings.Rate), settings.Ramp),
            steady,
        ];
    }

    /// <summary><paramref name="rate"/> calls started per second for <paramref name="duration"/>, whether earlier ones returned or not.</summary>
    /// <remarks>
    /// NBomber 4.1.2 creates each interval's copies at the interval's start, each waiting a random
    /// delay within the interval before its call (ScenarioActor.ExecSteps). With 1-s intervals at
    /// 32,000/s the load process reached its 20,000-descriptor limit within the first second and
    /// crashed; with intervals of about 10 ms the same rate held with p99 3.3 ms (pipes, Ping).
    /// </remarks>
    public static LoadSimulation OpenSimulation(int rate, TimeSpan duration)
    {
        var perInterval = CallsPerInterval(rate);
        return NBomber.CSharp.Simulation.Inject(perInterval, TimeSpan.FromSeconds((double)perInterval / rate), duration);
    }

    /// <summary>Calls the open model starts together at <paramref name="rate"/>: one interval's worth.</summary>
    public static int CallsPerInterval(int rate) => Math.Max(1, (int)Math.Round(rate / 100.0));

    public static string Describe(this LoadModel model, LoadSettings settings) => model == LoadModel.Closed
        ? $"closed model: {settings.Users} virtual users calling in a loop"
        : $"open model: {settings.Rate} calls started per second";
}
