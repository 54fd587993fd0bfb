using System.Collections.Concurrent;
using RpcCompare.Bindings.Push;
using RpcCompare.Client;
using RpcCompare.Contracts.Push;

namespace RpcCompare.PushAgent;

/// <summary>
/// The broadcast's subscribers held by this agent, each a push client of its own (for most variants
/// a connection of its own; gRPC's multiplexed clients share one), and the latency
/// of every notification they received, per publication until the runner takes it.
/// </summary>
internal sealed class BroadcastSubscribers : IAsyncDisposable
{
    private readonly RpcClientFactory _factory;
    private readonly List<IPushClient> _clients = [];
    // Keyed by topic and sequence: every push target's broadcast topic numbers its publications
    // from 1, and a late arrival of one target's burst must not count in another's.
    private readonly ConcurrentDictionary<(string Topic, long Sequence), Burst> _bursts = new();
    private readonly ConcurrentQueue<string> _ended = new();

    public BroadcastSubscribers(RpcClientFactory factory)
    {
        _factory = factory;
    }

    /// <summary>Adds subscribers (concurrently, a bounded number at a time) or closes the newest until <see cref="AgentCommand.Count"/> remain.</summary>
    public async Task<AgentEvent> ResizeAsync(AgentCommand command)
    {
        ArgumentException.ThrowIfNullOrEmpty(command.Binding);
        ArgumentException.ThrowIfNullOrEmpty(command.Address);
        ArgumentException.ThrowIfNullOrEmpty(command.Topic);
        while (_clients.Count > command.Count)
        {
            var last = _clients[^1];
            _clients.RemoveAt(_clients.Count - 1);
            await last.DisposeAsync();
        }

        var missing = command.Count - _clients.Count;
        string? error = null;
        var failed = 0;
        var deadlinePassed = await SubscribeDeadline.RunAsync(Enumerable.Range(0, missing).ToList(), async (index, cancellationToken) =>
        {
            var client = _factory.CreatePushClient(command.Binding, command.Address, command.Variant);
            try
            {
                var subscription = await client.SubscribeAsync(command.Topic, Receive, cancellationToken: cancellationToken);
                _ = subscription.Completion.ContinueWith(t => _ended.Enqueue(t.Exception?.InnerException?.Message ?? "ended"), TaskContinuationOptions.OnlyOnFaulted);
                lock (_clients)
                {
                    _clients.Add(client);
                }
            }
            catch (Exception exception)
            {
                // Past the deadline the answer counts what is still waiting instead.
                if (!cancellationToken.IsCancellationRequested)
                {
                    Interlocked.Increment(ref failed);
                    error ??= $"subscribing failed: {exception.GetType().Name}: {exception.Message}";
                }

                await client.DisposeAsync();
            }
        });
        var waiting = command.Count - _clients.Count - failed;
        if (deadlinePassed && waiting > 0)
        {
            var late = SubscribeDeadline.Describe(waiting, command.Count, missing);
            error = error is null ? late : $"{error}; {late}";
        }

        return new AgentEvent("subscribe", _clients.Count, Error: error ?? EndedSummary());
    }

    /// <summary>What arrived of one publication so far; the runner asks once, when the next is due.</summary>
    public AgentEvent TakeBurst(string? topic, long sequence)
    {
        ArgumentException.ThrowIfNullOrEmpty(topic);
        var burst = _bursts.TryRemove((topic, sequence), out var taken) ? taken : new Burst();

        // What arrives of this burst or an earlier one from now on is late and never asked for.
        foreach (var stale in _bursts.Keys.Where(k => k.Topic != topic || k.Sequence <= sequence))
        {
            _bursts.TryRemove(stale, out _);
        }

        var latencies = burst.Take();
        return new AgentEvent("burst", latencies.Length, LatenciesMilliseconds: latencies, Error: EndedSummary());
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var client in _clients)
        {
            await client.DisposeAsync();
        }

        _clients.Clear();
    }

    private void Receive(Notification notification)
    {
        var latency = Latency.MillisecondsSince(notification.SentTimestamp);
        _bursts.GetOrAdd((notification.Topic, notification.Sequence), static _ => new Burst()).Add(latency);
    }

    // Subscriptions the server or the connection ended since the last answer: the runner reports them.
    private string? EndedSummary()
    {
        var reasons = new List<string>();
        while (_ended.TryDequeue(out var reason))
        {
            reasons.Add(reason);
        }

        return reasons.Count == 0 ? null : $"{reasons.Count} subscription(s) ended: {reasons[0]}";
    }

    private sealed class Burst
    {
        private readonly List<double> _latencies = [];

        public void Add(double latency)
        {
            lock (_latencies)
            {
                _latencies.Add(latency);
            }
        }

        public double[] Take()
        {
            lock (_latencies)
            {
                return [.. _latencies];
            }
        }
    }
}
