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
/// topic and number, and only for topics this host has a publication of on its way. What cannot be
/// matched (a feed that was down, numbers given again by a broker that lost its data) is dropped: a
/// topic keeps at most <see cref="MaxPerTopic"/> of each, the host at most <see cref="MaxTopics"/> topics,
/// and a match older than <see cref="MaxAge"/> is not recorded.
/// </remarks>
internal sealed class BrokerTiming
{
    public const string PublishDurationName = "rpccompare.push.broker.publish.duration";
    public const string FeedDelayName = "rpccompare.push.broker.feed.delay";

    private const int MaxPerTopic = 1_024;
    private const int MaxTopics = 4_096;
    private static readonly TimeSpan MaxAge = TimeSpan.FromSeconds(60);

    // From 100 µs: a broker round trip on loopback is a few hundred microseconds.
    private static readonly InstrumentAdvice<double> s_buckets = new()
    {
        HistogramBucketBoundaries = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    };

    private readonly Histogram<double> _publishDuration;
    private readonly Histogram<double> _feedDelay;
    private readonly Lock _lock = new();
    private readonly Dictionary<string, Waiting> _topics = new(StringComparer.Ordinal);

    public BrokerTiming(Meter meter)
    {
        _publishDuration = meter.CreateHistogram(PublishDurationName, "s",
            "How long the push broker took to take and number a publication made on this host.", advice: s_buckets);
        _feedDelay = meter.CreateHistogram(FeedDelayName, "s",
            "From handing a publication made on this host to the push broker until the broker's feed brought it back here: the broker's share of every replica's delivery.", advice: s_buckets);
    }

    private bool Enabled => _publishDuration.Enabled || _feedDelay.Enabled;

    /// <summary>A publication of <paramref name="topic"/> goes to the broker now; the timestamp to hand to <see cref="Numbered"/> or <see cref="Failed"/>, 0 when nothing listens.</summary>
    public long Sending(string topic)
    {
        if (!Enabled)
        {
            return 0;
        }

        lock (_lock)
        {
            if (!_topics.TryGetValue(topic, out var waiting))
            {
                if (_topics.Count >= MaxTopics)
                {
                    // A feed that stopped leaves every topic waiting: start again rather than grow.
                    _topics.Clear();
                }

                _topics[topic] = waiting = new Waiting();
            }

            waiting.AwaitingNumbers++;
        }

        return Stopwatch.GetTimestamp();
    }

    /// <summary>The broker numbered <paramref name="sequence"/> the publication of <paramref name="topic"/> sent at <paramref name="sent"/>.</summary>
    public void Numbered(string topic, long sequence, long sent)
    {
        if (sent == 0)
        {
            return;
        }

        _publishDuration.Record(Stopwatch.GetElapsedTime(sent).TotalSeconds);
        long arrived = 0;
        lock (_lock)
        {
            if (_topics.TryGetValue(topic, out var waiting))
            {
                if (!waiting.ArrivedEarly.Remove(sequence, out arrived))
                {
                    Keep(waiting.Numbered, sequence, sent);
                }

                Awaited(topic, waiting);
            }
        }

        if (arrived != 0)
        {
            RecordFeedDelay(sent, arrived);
        }
    }

    /// <summary>The publication of <paramref name="topic"/> sent at <paramref name="sent"/> was not taken.</summary>
    public void Failed(string topic, long sent)
    {
        if (sent == 0)
        {
            return;
        }

        lock (_lock)
        {
            if (_topics.TryGetValue(topic, out var waiting))
            {
                Awaited(topic, waiting);
            }
        }
    }

    /// <summary>The broker's feed brought publication <paramref name="sequence"/> of <paramref name="topic"/> (any host's).</summary>
    public void Arrived(string topic, long sequence)
    {
        if (!Enabled)
        {
            return;
        }

        var now = Stopwatch.GetTimestamp();
        long sent = 0;
        lock (_lock)
        {
            if (!_topics.TryGetValue(topic, out var waiting))
            {
                // No publication of this host on its way in this topic: not one of ours.
                return;
            }

            if (waiting.Numbered.Remove(sequence, out sent))
            {
                Forget(topic, waiting);
            }
            else if (waiting.AwaitingNumbers > 0)
            {
                // Perhaps ours, its number on its way: kept while a publish of this topic awaits one.
                Keep(waiting.ArrivedEarly, sequence, now);
            }
        }

        if (sent != 0)
        {
            RecordFeedDelay(sent, now);
        }
    }

    private void RecordFeedDelay(long sent, long arrived)
    {
        var delay = Stopwatch.GetElapsedTime(sent, arrived);
        if (delay <= MaxAge)
        {
            _feedDelay.Record(delay.TotalSeconds);
        }
    }

    // Under the lock.
    private void Awaited(string topic, Waiting waiting)
    {
        if (--waiting.AwaitingNumbers == 0)
        {
            // No publish of this topic awaits its number: no early arrival can be claimed any more.
            waiting.ArrivedEarly.Clear();
            Forget(topic, waiting);
        }
    }

    // Under the lock.
    private void Forget(string topic, Waiting waiting)
    {
        if (waiting.AwaitingNumbers == 0 && waiting.Numbered.Count == 0)
        {
            _topics.Remove(topic);
        }
    }

    // Under the lock. A full table (a feed that stopped, numbers never claimed) starts again rather than grow.
    private static void Keep(Dictionary<long, long> table, long sequence, long timestamp)
    {
        if (table.Count >= MaxPerTopic)
        {
            table.Clear();
        }

        table[sequence] = timestamp;
    }

    /// <summary>One topic's publications of this host on their way: awaiting their number, or numbered and awaiting the feed.</summary>
    private sealed class Waiting
    {
        public int AwaitingNumbers { get; set; }

        public Dictionary<long, long> Numbered { get; } = [];

        public Dictionary<long, long> ArrivedEarly { get; } = [];
    }
}
