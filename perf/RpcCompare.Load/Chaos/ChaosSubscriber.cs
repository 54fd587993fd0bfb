using System.Diagnostics;
using RpcCompare.Bindings.Push;
using RpcCompare.Client;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Load.Chaos;

/// <summary>
/// One push subscriber under --chaos kill-replica, connected through the balancer: it keeps every
/// sequence number it receives, and when its subscription ends (its replica died) it subscribes
/// again through the balancer from the last number it has, as a real client would, until it is in
/// or <see cref="ResumeBound"/> passes.
/// </summary>
internal sealed class ChaosSubscriber
{
    /// <summary>How long a subscriber keeps trying to resume before it counts as never resumed.</summary>
    public static readonly TimeSpan ResumeBound = TimeSpan.FromSeconds(30);

    private readonly RpcClientFactory _factory;
    private readonly string _address;
    private readonly string _topic;
    private readonly Stopwatch _clock;
    private readonly List<long> _received = [];
    private readonly List<(double EndedAt, double? ResumedAt, int ReceivedBefore)> _interruptions = [];
    private IPushClient? _client;
    private IPushSubscription? _subscription;

    public ChaosSubscriber(RpcClientFactory factory, string binding, int index, string address, string topic, Stopwatch clock)
    {
        _factory = factory;
        Binding = binding;
        Index = index;
        _address = address;
        _topic = topic;
        _clock = clock;
    }

    public string Binding { get; }

    public int Index { get; }

    /// <summary>The highest sequence number received; 0 before the first.</summary>
    public long Last
    {
        get
        {
            lock (_received)
            {
                return _received.Count == 0 ? 0 : _received.Max();
            }
        }
    }

    /// <summary>Whether it is subscribed now (not between an end and its resumption).</summary>
    public bool Subscribed { get; private set; }

    /// <summary>The first subscription; throws when the binding refuses it, which fails the run before any load.</summary>
    public async Task SubscribeAsync(CancellationToken cancellationToken)
    {
        _client = _factory.CreatePushClient(Binding, _address);
        _subscription = await _client.SubscribeAsync(_topic, Receive, cancellationToken: cancellationToken);
        Subscribed = true;
    }

    /// <summary>Follows the subscription until <paramref name="stop"/>: every time it ends, subscribes again from the last number.</summary>
    public async Task FollowAsync(CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            try
            {
                await _subscription!.Completion.WaitAsync(stop);
                return; // Ended by this side.
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception)
            {
                // Its replica died or the connection broke: the case this run is for.
            }

            Subscribed = false;
            var endedAt = _clock.Elapsed.TotalSeconds;
            int receivedBefore;
            lock (_received)
            {
                receivedBefore = _received.Count;
            }

            var resumedAt = await ResumeAsync(stop);
            lock (_interruptions)
            {
                _interruptions.Add((endedAt, resumedAt, receivedBefore));
            }

            if (resumedAt is null)
            {
                return;
            }
        }
    }

    public async Task CloseAsync()
    {
        if (_client is not null)
        {
            await _client.DisposeAsync();
        }
    }

    /// <summary>What it received, checked against the highest sequence number the publisher saw acknowledged.</summary>
    public ChaosSubscriberResult Result(long acknowledged, double killedAt)
    {
        long[] received;
        lock (_received)
        {
            received = [.. _received];
        }

        List<ChaosInterruption> interruptions;
        lock (_interruptions)
        {
            interruptions = [.. _interruptions.Select(i => new ChaosInterruption(i.EndedAt - killedAt, i.ResumedAt - killedAt, i.ReceivedBefore))];
        }

        return Check(Binding, Index, received, acknowledged, interruptions);
    }

    /// <summary>
    /// The verdict on one subscriber: it must hold every number from 1 to <paramref name="acknowledged"/>
    /// (each was given out, even when its reply was lost), in increasing order, and have resumed after
    /// every end. The one allowance is the product's: a resumption replays at most the newest half
    /// queue of what the topic's log holds after the last number received, so numbers missing between
    /// the last before an end and the first after its resumption are gone, and the subscriber knows
    /// exactly which (<see cref="ChaosSubscriberResult.GoneAtResume"/>); any other missing number is a loss.
    /// </summary>
    internal static ChaosSubscriberResult Check(string binding, int index, IReadOnlyList<long> received, long acknowledged, IReadOnlyList<ChaosInterruption> interruptions)
    {
        var distinct = received.ToHashSet();
        var gone = new HashSet<long>();
        foreach (var interruption in interruptions.Where(i => i.ReceivedBefore < received.Count))
        {
            var lastBefore = interruption.ReceivedBefore == 0 ? 0 : received[interruption.ReceivedBefore - 1];
            for (var sequence = lastBefore + 1; sequence < received[interruption.ReceivedBefore]; sequence++)
            {
                gone.Add(sequence);
            }
        }

        var missing = new List<long>();
        for (long sequence = 1; sequence <= acknowledged; sequence++)
        {
            if (!distinct.Contains(sequence) && !gone.Contains(sequence))
            {
                missing.Add(sequence);
            }
        }

        var outOfOrder = received.Zip(received.Skip(1)).Count(p => p.Second <= p.First);
        var problems = new List<string>();
        if (missing.Count > 0)
        {
            problems.Add($"missed {missing.Count:#,0} of the {acknowledged:#,0} acknowledged publications (first: {string.Join(", ", missing.Take(10))})");
        }

        if (outOfOrder > 0)
        {
            problems.Add($"{outOfOrder:#,0} notifications out of order or repeated");
        }

        if (interruptions.Any(i => i.ResumedSeconds is null))
        {
            problems.Add($"its subscription ended and could not be made again within {ResumeBound.TotalSeconds:0} s");
        }

        return new ChaosSubscriberResult(binding, index, received.Count, missing.Count, gone.Count(s => s <= acknowledged), received.Count - distinct.Count, outOfOrder, interruptions, problems);
    }

    private void Receive(Notification notification)
    {
        if (notification.Sequence <= 0)
        {
            return;
        }

        lock (_received)
        {
            _received.Add(notification.Sequence);
        }
    }

    /// <summary>Subscribes again through the balancer from the last number received; the clock's seconds when in, null when the bound passed.</summary>
    private async Task<double?> ResumeAsync(CancellationToken stop)
    {
        var deadline = _clock.Elapsed + ResumeBound;
        while (_clock.Elapsed < deadline)
        {
            await CloseAsync();
            _client = _factory.CreatePushClient(Binding, _address);
            try
            {
                using var attempt = CancellationTokenSource.CreateLinkedTokenSource(stop);
                attempt.CancelAfter(ChaosSettings.Default.ConnectTimeout);
                _subscription = await _client.SubscribeAsync(_topic, Receive, after: Last, attempt.Token);
                Subscribed = true;
                return _clock.Elapsed.TotalSeconds;
            }
            catch (Exception)
            {
                if (stop.IsCancellationRequested)
                {
                    return null;
                }

                await Task.Delay(ChaosSettings.RetryPause, CancellationToken.None);
            }
        }

        return null;
    }
}
