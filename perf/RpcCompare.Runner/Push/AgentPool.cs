using RpcCompare.PushAgent;

namespace RpcCompare.Runner.Push;

/// <summary>
/// The subscriber processes of one push suite run, started as the subscriber count needs them
/// (<see cref="PushSettings.SubscribersPerAgent"/> each) and reused from target to target.
/// </summary>
internal sealed class AgentPool : IAsyncDisposable
{
    private readonly List<AgentProcess> _agents = [];
    private readonly int _perAgent;
    private readonly string? _serverThumbprint;

    /// <param name="perAgent">Subscribers per agent process.</param>
    /// <param name="serverThumbprint">The TLS host's certificate the agents pin (a --host with TLS on); null for plaintext.</param>
    public AgentPool(int perAgent, string? serverThumbprint = null)
    {
        _perAgent = perAgent;
        _serverThumbprint = serverThumbprint;
    }

    public int Started => _agents.Count;

    /// <summary><paramref name="total"/> split as evenly as possible over the agents it needs.</summary>
    public IReadOnlyList<int> Shares(int total)
    {
        var count = Math.Max(1, (int)Math.Ceiling((double)total / _perAgent));
        return [.. Enumerable.Range(0, count).Select(i => (total / count) + (i < total % count ? 1 : 0))];
    }

    /// <summary>The first <paramref name="count"/> agents, started when missing.</summary>
    public IReadOnlyList<AgentProcess> Take(int count)
    {
        while (_agents.Count < count)
        {
            _agents.Add(AgentProcess.Start(_serverThumbprint));
        }

        return _agents.GetRange(0, count);
    }

    /// <summary>Sends each agent its own command and waits for every answer.</summary>
    public async Task<IReadOnlyList<AgentEvent>> SendAsync(IReadOnlyList<AgentCommand> commands, TimeSpan timeout)
    {
        var agents = Take(commands.Count);
        return await Task.WhenAll(commands.Select((command, i) => agents[i].SendAsync(command, timeout)));
    }

    /// <summary>The same command to every started agent.</summary>
    public async Task<IReadOnlyList<AgentEvent>> SendAllAsync(Func<int, AgentCommand> command, TimeSpan timeout) =>
        await SendAsync([.. _agents.Select((_, i) => command(i))], timeout);

    public async ValueTask DisposeAsync()
    {
        await Task.WhenAll(_agents.Select(a => a.DisposeAsync().AsTask()));
        _agents.Clear();
    }
}
