using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace RpcCompare.Push.Internal;

/// <summary>
/// The broker's share of a publication's way, measured on the host that published it (one process, one
/// clock): how long the broker took to number it (<see cref="PublishDurationName"/>) and how long from
/// handing it to the broker until the broker's feed brought it back here (<see cref="FeedDelayName"/>),
/// which is when every replica following the feed can start queuing it. Nothing is kept or measured
/// unless something listens to the histograms.
/// </summary>
/// <remarks>
/// The feed may bring a publication before the broker's answer to the publish reaches this host (Redis
/// answers the script and announces on Pub/Sub over two connections), so both orders are matched by
/// topic and number. What cannot be matched (a feed that was down, another host's publications while
/// one of this host's awaited its number) is dropped: each table holds at most <see cref="MaxWaiting"/>.
/// </remarks>
internal sealed class BrokerTiming
{
    public const string PublishDurationName = "rpccompare.push.broker.publish.duration";
    public const string FeedDelayName = "rpccompare.push.broker.feed.delay";

    private const int MaxWaiting = 4_096;

    // From 100 µs: a broker round trip on loopback is a few hundred microseconds.
    private static readonly InstrumentAdvice<double> s_buckets = new()
    {
        HistogramBucketBoundaries = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    };

    private readonly Histogram<double> _publishDuration;
    private readonly Histogram<double> _feedDelay;
    private readonly Lock _lock = new();
    private readonly Dictionary<(string Topic, long Sequence), long> _numbered = [];
    private readonly Dictionary<(string Topic, long Sequence), long> _arrivedEarly = [];
    private int _awaitingNumbers;

    public BrokerTiming(Meter meter)
    {
        _publishDuration = meter.CreateHistogram(PublishDurationName, "s",
            "How long the push broker took to take and number a publication made on this host.", advice: s_buckets);
        _feedDelay = meter.CreateHistogram(FeedDelayName, "s",
            "From handing a publication made on this host to the push broker until the broker's feed brought it back here: the broker's share of every replica's delivery.", advice: s_buckets);
    }

    private bool Enabled => _publishDuration.Enabled || _feedDelay.Enabled;

    /// <summary>A publication goes to the broker now; the timestamp to hand to <see cref="Numbered"/> or <see cref="Failed"/>, 0 when nothing listens.</summary>
    public long Sending()
    {
        if (!Enabled)
        {
            return 0;
        }

        lock (_lock)
        {
            _awaitingNumbers++;
        }

        return Stopwatch.GetTimestamp();
    }

    /// <summary>The broker numbered the publication sent at <paramref name="sent"/>.</summary>
    public void Numbered(string topic, long sequence, long sent)
    {
        if (sent == 0)
        {
            return;
        }

        var now = Stopwatch.GetTimestamp();
        _publishDuration.Record(Stopwatch.GetElapsedTime(sent, now).TotalSeconds);
        long? arrived = null;
        lock (_lock)
        {
            if (_arrivedEarly.Remove((topic, sequence), out var at))
            {
                arrived = at;
            }
            else
            {
                Keep(_numbered, (topic, sequence), sent);
            }

            // After the claim: the last awaiting publish clears what is left.
            Awaited();
        }

        if (arrived is { } feed)
        {
            _feedDelay.Record(Stopwatch.GetElapsedTime(sent, feed).TotalSeconds);
        }
    }

    /// <summary>The publication sent at <paramref name="sent"/> was not taken.</summary>
    public void Failed(long sent)
    {
        if (sent == 0)
        {
            return;
        }

        lock (_lock)
        {
            Awaited();
        }
    }

    /// <summary>The broker's feed brought a publication (any host's).</summary>
    public void Arrived(string topic, long sequence)
    {
        if (!Enabled)
        {
            return;
        }

        var now = Stopwatch.GetTimestamp();
        long? sent = null;
        lock (_lock)
        {
            if (_numbered.Remove((topic, sequence), out var at))
            {
                sent = at;
            }
            else if (_awaitingNumbers > 0)
            {
                // Perhaps one of this host's, whose number is on its way: kept until no publish awaits one.
                Keep(_arrivedEarly, (topic, sequence), now);
            }
        }

        if (sent is { } start)
        {
            _feedDelay.Record(Stopwatch.GetElapsedTime(start, now).TotalSeconds);
        }
    }

    // Under the lock.
    private void Awaited()
    {
        if (--_awaitingNumbers == 0)
        {
            // No publish of this host awaits its number: no early arrival can be claimed any more.
            _arrivedEarly.Clear();
        }
    }

    // Under the lock. A full table (a feed that stopped, numbers never claimed) starts again rather than grow.
    private static void Keep(Dictionary<(string Topic, long Sequence), long> table, (string Topic, long Sequence) key, long timestamp)
    {
        if (table.Count >= MaxWaiting)
        {
            table.Clear();
        }

        table[key] = timestamp;
    }
}
