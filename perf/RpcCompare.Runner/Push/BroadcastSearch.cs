using System.Diagnostics;
using RpcCompare.Bindings.Push;
using RpcCompare.Contracts.Push;
using RpcCompare.PushAgent;

namespace RpcCompare.Runner.Push;

/// <summary>
/// The original broadcast method over one push target: M subscribers (in the agent processes) on
/// one topic, the runner publishing once per period; a burst completes when all M notifications
/// arrived before the next publication was due, and M holds when every burst of its run does.
/// M doubles from the first step until it fails (or reaches the ceiling), then bisects; with
/// <see cref="PushSettings.ConfirmBursts"/> the M found must then hold a longer run to count.
/// </summary>
internal sealed class BroadcastSearch
{
    /// <summary>Smaller Ms tried when the M found fails its confirmation run: on a shared VM one late burst in 100 is common near the limit.</summary>
    private const int ConfirmationFallbacks = 2;

    private readonly PushSettings _settings;
    private readonly AgentPool _agents;
    private readonly Action<string> _progress;

    public BroadcastSearch(PushSettings settings, AgentPool agents, Action<string> progress)
    {
        _settings = settings;
        _agents = agents;
        _progress = progress;
    }

    /// <summary>Searches the largest M for one target; <paramref name="connectPublisher"/> opens the runner's publishing client, again after a publication failed on it.</summary>
    public async Task<BroadcastResult> RunAsync(PushTarget target, Func<IPushClient> connectPublisher)
    {
        await using var publisher = new ReconnectingPublisher(connectPublisher);
        var topic = $"broadcast/{target.Label}";
        var steps = new List<BroadcastStep>();
        var latencies = new Dictionary<int, (List<double> Deliveries, List<double> Completions)>();
        int? held = null;
        int? failed = null;
        try
        {
            for (var m = _settings.FirstSubscribers; ; m = Math.Min(m * 2, _settings.MaxSubscribers))
            {
                var (step, measured) = await TryAsync(target, publisher, topic, m, _settings.Bursts);
                steps.Add(step);
                latencies[m] = measured;
                if (!step.Held)
                {
                    failed = m;
                    break;
                }

                held = m;
                if (m >= _settings.MaxSubscribers)
                {
                    break;
                }
            }

            for (var i = 0; i < _settings.BisectSteps && failed is { } high && high - (held ?? 0) > Math.Max(1, high / 20); i++)
            {
                var m = ((held ?? 0) + high) / 2;
                var (step, measured) = await TryAsync(target, publisher, topic, m, _settings.Bursts);
                steps.Add(step);
                latencies[m] = measured;
                if (step.Held)
                {
                    held = m;
                }
                else
                {
                    failed = m;
                }
            }

            if (held is { } found && _settings.Confirmations > 0)
            {
                held = null;
                // The M found, then the largest smaller ones that held, one longer run each at most.
                var smaller = steps.Where(s => s.Held && s.Subscribers < found).Select(s => s.Subscribers).Distinct().OrderDescending();
                foreach (var m in smaller.Prepend(found).Take(1 + ConfirmationFallbacks))
                {
                    var (step, measured) = await TryAsync(target, publisher, topic, m, _settings.Confirmations, confirmation: true);
                    steps.Add(step);
                    if (step.Held)
                    {
                        held = m;
                        latencies[m] = measured;
                        break;
                    }
                }
            }
        }
        finally
        {
            await ResizeAsync(target, topic, 0);
        }

        var atMax = held is { } best ? latencies[best] : default;
        return new BroadcastResult(target, held, held == _settings.MaxSubscribers, steps,
            atMax.Deliveries is { } d ? LatencySummary.Of(d) : null,
            atMax.Completions is { } c ? LatencySummary.Of(c) : null);
    }

    private async Task<(BroadcastStep Step, (List<double>, List<double>) Latencies)> TryAsync(PushTarget target, ReconnectingPublisher publisher, string topic, int m, int bursts,
        bool confirmation = false)
    {
        _progress($"push · broadcast · {target.Label} · subscribing {m:#,0}");
        var deliveries = new List<double>();
        var completions = new List<double>();
        var subscribed = await ResizeAsync(target, topic, m);
        if (subscribed.Count < m)
        {
            return (new BroadcastStep(m, 0, 0, null, null, false, $"only {subscribed.Count:#,0} of {m:#,0} subscribed: {subscribed.Error}", confirmation), (deliveries, completions));
        }

        var period = TimeSpan.FromSeconds(_settings.PeriodSeconds);
        var deadline = period.TotalMilliseconds;
        var items = Enumerable.Range(0, 20).Select(i => $"broadcast item {i}").ToList();
        string? failure = null;
        var published = 0;
        for (var burst = 1; burst <= bursts && failure is null; burst++)
        {
            _progress($"push · broadcast · {target.Label} · {m:#,0} subscribers · {(confirmation ? "confirming, " : "")}burst {burst}/{bursts}");
            published++;
            var sent = Stopwatch.GetTimestamp();
            PublishReply reply;
            try
            {
                reply = await publisher.PublishAsync(new Notification { Topic = topic, SentTimestamp = sent, Publisher = "runner", Items = items });
            }
            catch (Exception exception) when (exception is not OperationCanceledException)
            {
                // Whatever the binding throws (IOException, RpcException, CommunicationException): this step fails, the run goes on.
                failure = $"burst {burst}: publishing failed: {exception.Message}";
                break;
            }

            var wait = period - Stopwatch.GetElapsedTime(sent);
            if (wait > TimeSpan.Zero)
            {
                await Task.Delay(wait);
            }

            var answers = await _agents.SendAllAsync(_ => new AgentCommand("burst", Topic: topic, Sequence: reply.Sequence), TimeSpan.FromSeconds(60));
            var arrived = answers.SelectMany(a => a.LatenciesMilliseconds ?? []).ToList();
            deliveries.AddRange(arrived);
            var inTime = arrived.Count(l => l <= deadline);
            if (arrived.Count > 0)
            {
                completions.Add(arrived.Max());
            }

            var agentError = answers.FirstOrDefault(a => a.Error is not null)?.Error;
            if (reply.Disconnected > 0 || agentError is not null)
            {
                failure = $"burst {burst}: " + string.Join("; ", new[]
                {
                    reply.Disconnected > 0 ? $"the server dropped {reply.Disconnected} subscriber(s) whose queue was full" : null,
                    agentError,
                }.OfType<string>());
            }
            else if (inTime < m)
            {
                failure = $"burst {burst}: {inTime:#,0} of {m:#,0} notifications arrived within {_settings.PeriodSeconds:0.##} s ({arrived.Count:#,0} by the time the agents were asked)";
            }
        }

        var sorted = completions.Order().ToList();
        var step = new BroadcastStep(m, published, failure is null ? published : published - 1,
            sorted.Count > 0 ? Measurement.Statistics.Median(sorted) : null, sorted.Count > 0 ? sorted[^1] : null, failure is null, failure, confirmation);
        return (step, (deliveries, completions));
    }

    // Spreads M over the agents; agents beyond those needed drop to 0.
    private async Task<(int Count, string? Error)> ResizeAsync(PushTarget target, string topic, int m)
    {
        var shares = _agents.Shares(m);
        var commands = Enumerable.Range(0, Math.Max(shares.Count, _agents.Started))
            .Select(i => new AgentCommand("subscribe", target.Binding, target.Address, target.Variant, topic, Count: i < shares.Count ? shares[i] : 0))
            .ToList();
        var answers = await _agents.SendAsync(commands, TimeSpan.FromSeconds(120 + (m / 50)));
        return (answers.Sum(a => a.Count), answers.FirstOrDefault(a => a.Error is not null)?.Error);
    }

    /// <summary>
    /// The runner's publishing client for one target. A failed publication drops the client and
    /// the next one opens a new connection, so one broken connection fails a step, not the run.
    /// </summary>
    private sealed class ReconnectingPublisher(Func<IPushClient> connect) : IAsyncDisposable
    {
        private IPushClient? _client;

        public async Task<PublishReply> PublishAsync(Notification notification)
        {
            try
            {
                _client ??= connect();
                return await _client.PublishAsync(notification);
            }
            catch
            {
                await DisposeAsync();
                throw;
            }
        }

        public async ValueTask DisposeAsync()
        {
            if (_client is { } client)
            {
                _client = null;
                try
                {
                    await client.DisposeAsync();
                }
                catch (Exception exception) when (exception is not OperationCanceledException)
                {
                    // Closing a connection that already broke can throw too; the publication's failure is what gets reported.
                }
            }
        }
    }
}
