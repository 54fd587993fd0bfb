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

    /// <summary>
    /// What a host replays on a resumption at most: half its subscriber queue, 128 with the default
    /// QueueCapacity of 256 (docs/push.md). A fleet configured with a larger queue replays more, and
    /// the check below then allows a larger gap than the fleet really leaves.
    /// </summary>
    public const long AssumedReplay = 128;

    private readonly RpcClientFactory _factory;
    private readonly string _address;
    private readonly string _topic;
    private readonly Stopwatch _clock;
    private readonly Func<long> _highestAcknowledged;
    private readonly TimeSpan _attemptTimeout;
    private readonly List<long> _received = [];
    private long _last; // the highest of _received, kept as they come: Last is read on every resubscription
    private readonly List<ChaosInterruption> _interruptions = [];
    private IPushClient? _client;
    private IPushSubscription? _subscription;

    /// <param name="factory">Makes its push clients.</param>
    /// <param name="binding">The binding it subscribes over.</param>
    /// <param name="index">Its number among the binding's subscribers, from 1.</param>
    /// <param name="address">The balancer's address for the binding.</param>
    /// <param name="topic">The topic it follows.</param>
    /// <param name="clock">The run's clock: when its subscription ended and was made again.</param>
    /// <param name="highestAcknowledged">The publisher's highest acknowledged number so far: bounds what a resumption may leave out.</param>
    /// <param name="attemptTimeout">How long one subscribe may take.</param>
    public ChaosSubscriber(RpcClientFactory factory, string binding, int index, string address, string topic, Stopwatch clock, Func<long> highestAcknowledged, TimeSpan attemptTimeout)
    {
        _factory = factory;
        Binding = binding;
        Index = index;
        _address = address;
        _topic = topic;
        _clock = clock;
        _highestAcknowledged = highestAcknowledged;
        _attemptTimeout = attemptTimeout;
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
                return _last;
            }
        }
    }

    /// <summary>The first subscription; throws when the binding refuses it, which fails the run before any load.</summary>
    public async Task SubscribeAsync(CancellationToken cancellationToken)
    {
        _client = _factory.CreatePushClient(Binding, _address);
        using var attempt = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        attempt.CancelAfter(_attemptTimeout);
        _subscription = await _client.SubscribeAsync(_topic, Receive, cancellationToken: attempt.Token);
    }

    /// <summary>Follows the subscription until <paramref name="stop"/>: every time it ends, subscribes again from the last number.</summary>
    public async Task FollowAsync(CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            try
            {
                // Completes without an error only when this side ended it (IPushSubscription), but
                // whatever ended it, the subscriber is out until it subscribes again.
                await _subscription!.Completion.WaitAsync(stop);
            }
            catch (OperationCanceledException) when (stop.IsCancellationRequested)
            {
                return;
            }
            catch (Exception)
            {
                // Its replica died or the connection broke: the case this run is for.
            }

            if (stop.IsCancellationRequested)
            {
                return;
            }

            var endedAt = _clock.Elapsed.TotalSeconds;
            int receivedBefore;
            lock (_received)
            {
                receivedBefore = _received.Count;
            }

            var (resumedAt, highest) = await ResumeAsync(stop);
            lock (_interruptions)
            {
                _interruptions.Add(new ChaosInterruption(endedAt, resumedAt, receivedBefore, highest, Stopped: resumedAt is null && stop.IsCancellationRequested));
            }

            if (resumedAt is null)
            {
                return;
            }
        }
    }

    /// <summary>Ends its subscription and connection; never throws (a dead connection may fail to close).</summary>
    public async Task CloseAsync()
    {
        if (Interlocked.Exchange(ref _client, null) is { } client)
        {
            await PushUnderChaos.CloseQuietlyAsync(client);
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
            interruptions = [.. _interruptions.Select(i => i with { EndedSeconds = i.EndedSeconds - killedAt, ResumedSeconds = i.ResumedSeconds - killedAt })];
        }

        return Check(Binding, Index, received, acknowledged, interruptions);
    }

    /// <summary>
    /// The verdict on one subscriber: it must hold every number from 1 to <paramref name="acknowledged"/>
    /// (each was given out, even when its reply was lost), in increasing order, and have resumed after
    /// every end. The one allowance is the product's: a resumption replays at most the newest
    /// <see cref="AssumedReplay"/> numbers the topic's log holds, so of the numbers between the last
    /// received before an end and the first after its resumption, those more than a replay below the
    /// topic's last number when it resumed are gone, and the subscriber knows exactly which
    /// (<see cref="ChaosSubscriberResult.GoneAtResume"/>). Any other missing number is a loss.
    /// </summary>
    internal static ChaosSubscriberResult Check(string binding, int index, IReadOnlyList<long> received, long acknowledged, IReadOnlyList<ChaosInterruption> interruptions)
    {
        var distinct = received.ToHashSet();
        var gone = new HashSet<long>();
        foreach (var interruption in interruptions.Where(i => i.ResumedSeconds is not null && i.ReceivedBefore < received.Count))
        {
            var lastBefore = interruption.ReceivedBefore == 0 ? 0 : received[interruption.ReceivedBefore - 1];
            // One publication at a time: when it resumed, the topic's log ended at most one past the highest acknowledged.
            var beyondReplay = interruption.HighestAcknowledgedAtResume + 1 - AssumedReplay;
            for (var sequence = lastBefore + 1; sequence < received[interruption.ReceivedBefore] && sequence <= beyondReplay; sequence++)
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

        if (interruptions.Any(i => i.ResumedSeconds is null && !i.Stopped))
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
            _last = Math.Max(_last, notification.Sequence);
        }
    }

    /// <summary>
    /// Subscribes again through the balancer from the last number received: the clock's seconds when
    /// in (null when the bound passed or the run stopped), and the publisher's highest acknowledged
    /// number at that moment.
    /// </summary>
    private async Task<(double? ResumedAt, long HighestAcknowledged)> ResumeAsync(CancellationToken stop)
    {
        var deadline = _clock.Elapsed + ResumeBound;
        while (_clock.Elapsed < deadline && !stop.IsCancellationRequested)
        {
            await CloseAsync();
            _client = _factory.CreatePushClient(Binding, _address);
            try
            {
                using var attempt = CancellationTokenSource.CreateLinkedTokenSource(stop);
                attempt.CancelAfter(_attemptTimeout);
                _subscription = await _client.SubscribeAsync(_topic, Receive, after: Last, attempt.Token);
                return (_clock.Elapsed.TotalSeconds, _highestAcknowledged());
            }
            catch (Exception)
            {
                if (!stop.IsCancellationRequested)
                {
                    await Task.Delay(ChaosSettings.RetryPause, CancellationToken.None);
                }
            }
        }

        return (null, _highestAcknowledged());
    }
}
