using RpcCompare.PushAgent;

namespace RpcCompare.Runner.Push;

/// <summary>
/// The original collaboration method over one push target: rooms of members who each subscribe
/// to their room and publish in turn, the others receiving; whole rooms per agent process.
/// </summary>
internal sealed class CollaborationRun
{
    private readonly PushSettings _settings;
    private readonly AgentPool _agents;

    public CollaborationRun(PushSettings settings, AgentPool agents)
    {
        _settings = settings;
        _agents = agents;
    }

    public async Task<CollaborationResult> RunAsync(PushTarget target, CollaborationRow row)
    {
        var agents = _agents.Shares(row.Rooms * row.Members).Count;
        var commands = new List<AgentCommand>();
        var first = 0;
        for (var i = 0; i < agents; i++)
        {
            var rooms = (row.Rooms / agents) + (i < row.Rooms % agents ? 1 : 0);
            commands.Add(new AgentCommand("collaborate", target.Binding, target.Address, target.Variant,
                Rooms: rooms, Members: row.Members, FirstRoom: first, IntervalSeconds: row.IntervalSeconds, Iterations: _settings.Iterations));
            first += rooms;
        }

        var timeout = TimeSpan.FromSeconds(180 + (row.Rooms * row.Members / 50.0) + ((_settings.Iterations + 1) * row.IntervalSeconds));
        var answers = await _agents.SendAsync(commands, timeout);
        var latencies = answers.SelectMany(a => a.LatenciesMilliseconds ?? []).ToList();
        var expected = (long)row.Rooms * _settings.Iterations * (row.Members - 1);
        var failure = answers.FirstOrDefault(a => a.Error is not null)?.Error
            ?? (latencies.Count < expected ? $"{expected - latencies.Count:#,0} of {expected:#,0} notifications did not arrive" : null);
        return new CollaborationResult(target, row, _settings.Iterations, expected, latencies.Count, LatencySummary.Of(latencies), failure);
    }
}
