using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push.Internal;

namespace RpcCompare.Push;

/// <summary>
/// Topics and their subscribers, one per host, shared by every push binding: a publication over
/// gRPC reaches subscribers on WCF, pipes and HTTP alike. Publishing never waits for a
/// subscriber: it puts the publication in each subscriber's bounded queue and disconnects any
/// subscriber whose queue is full.
/// </summary>
/// <remarks>
/// With an <see cref="IPushBroker"/> registered, the registry is one replica's share of topics that
/// several hosts serve together: <see cref="PublishAsync"/> appends to the broker, which numbers the
/// publication, and every replica's registry (this one too) queues it for its own subscribers when
/// the broker's feed brings it, in the topic's order, reading any gap back from the broker's log.
/// </remarks>
public sealed partial class TopicRegistry : IDisposable, IAsyncDisposable
{
    private readonly ConcurrentDictionary<string, Topic> _topics = new(StringComparer.Ordinal);
    private readonly PushOptions _options;
    private readonly ILogger<TopicRegistry> _logger;
    private readonly IPushBroker? _broker;
    private readonly BrokerFeed? _feed;
    private readonly BrokerTiming? _brokerTiming;
    private long _nextSubscriberId;
    private long _published;
    private long _disconnected;
    private long _encodings;

    /// <param name="options">Push settings.</param>
    /// <param name="logger">For dropped subscribers and broker trouble.</param>
    /// <param name="broker">The broker the host shares topics through with other replicas; none by default.</param>
    /// <param name="meters">Where the registry's metrics go (<see cref="PushMetrics"/>); none by default.</param>
    public TopicRegistry(IOptions<PushOptions> options, ILogger<TopicRegistry> logger, IPushBroker? broker = null, IMeterFactory? meters = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        _options = options.Value;
        if (_options.QueueCapacity < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(options), _options.QueueCapacity, "Push:QueueCapacity must be at least 1.");
        }

        _logger = logger;
        if (broker is not null)
        {
            _broker = broker;
            _feed = new BrokerFeed(broker, this, logger);
        }

        if (meters is not null)
        {
            var meter = PushMetrics.Observe(meters, this);
            _brokerTiming = broker is null ? null : new BrokerTiming(meter);
        }
    }

    /// <summary>What the registry holds and has done, for tests and the runner's report.</summary>
    public PushStatistics Statistics => new(
        _topics.Count,
        _topics.Values.Sum(t => t.Count),
        Interlocked.Read(ref _published),
        Interlocked.Read(ref _disconnected),
        Interlocked.Read(ref _encodings));

    /// <summary>As <see cref="PushStatistics.Published"/>, without counting topics and subscribers.</summary>
    internal long Published => Interlocked.Read(ref _published);

    /// <summary>As <see cref="PushStatistics.Disconnected"/>, without counting topics and subscribers.</summary>
    internal long Disconnected => Interlocked.Read(ref _disconnected);

    /// <summary>Publications waiting in subscribers' queues now: in all, and in the fullest queue.</summary>
    public (long Total, int Deepest) QueueDepths()
    {
        long total = 0;
        var deepest = 0;
        foreach (var topic in _topics.Values)
        {
            foreach (var subscriber in topic.Subscribers)
            {
                var depth = subscriber.Notifications.Count;
                total += depth;
                deepest = Math.Max(deepest, depth);
            }
        }

        return (total, deepest);
    }

    /// <summary>
    /// Registers a subscriber; every publication accepted after this returns reaches its queue. Resuming
    /// <paramref name="after"/> the last number it received (<see cref="SubscribeRequest.After"/>; null: not
    /// resuming): with a broker, its queue first holds the newest publications after it that the broker's log
    /// still has, at most half the queue; without one there is no log, and the last sequence tells what it missed.
    /// </summary>
    /// <returns>The subscriber, and the topic's last number before its first publication.</returns>
    /// <remarks>
    /// Without a broker it completes at once. With one, a topic's first subscriber on this host asks the broker
    /// for the topic's last number, and a resuming one reads what it missed: asynchronously, never holding a
    /// thread, so hundreds of subscribers to new topics at once wait for the broker's answers rather than for
    /// threads to read them on.
    /// </remarks>
    /// <exception cref="RpcServiceException">The topic name is empty or too long, <paramref name="after"/> is negative, or the broker did not answer.</exception>
    public async ValueTask<(PushSubscriber Subscriber, long LastSequence)> SubscribeAsync(string topic, long? after = null, CancellationToken cancellationToken = default)
    {
        Validate(topic);
        if (after < 0)
        {
            throw new RpcServiceException(RpcErrorCode.InvalidArgument, $"After is the last sequence number received, 0 or more; got {after}.");
        }

        if (_feed is not null)
        {
            await _feed.WaitUntilOpenAsync(cancellationToken).ConfigureAwait(false);
        }

        var subscriber = new PushSubscriber(this, topic, Interlocked.Increment(ref _nextSubscriberId), _options.QueueCapacity);
        while (true)
        {
            var entry = _topics.GetOrAdd(topic, static (name, broker) => new Topic(name, broker), _broker);
            long? lastSequence;
            try
            {
                lastSequence = await entry.TryAddAsync(subscriber, after, ReplayLimit, this, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception e) when (e is not RpcServiceException and not OperationCanceledException)
            {
                throw BrokerFailed(e);
            }
            finally
            {
                // Emptied by a refused subscription (the next subscriber asks the broker again), or already gone.
                if (entry.IsRemoved)
                {
                    _topics.TryRemove(new KeyValuePair<string, Topic>(topic, entry));
                }
            }

            if (lastSequence is { } last)
            {
                return (subscriber, last);
            }

            // The topic emptied and left the dictionary between the lookup and the lock: take the new one.
        }
    }

    /// <summary>
    /// Publishes on every binding, and with a broker on every replica: without a broker, as
    /// <see cref="Publish"/>, completed at once; with one, once the broker numbered it. Replicas queue
    /// it for their subscribers when the broker's feed brings it, so the reply counts none.
    /// </summary>
    /// <exception cref="RpcServiceException">The topic name is empty or too long, or the broker did not take it.</exception>
    public ValueTask<PublishReply> PublishAsync(Notification notification, CancellationToken cancellationToken = default) =>
        _broker is null ? ValueTask.FromResult(Publish(notification)) : new(PublishThroughBrokerAsync(notification, cancellationToken));

    /// <summary>
    /// Gives the notification the topic's next sequence number and queues it for every subscriber.
    /// A topic nobody subscribes to takes nothing: the reply says 0 queued and sequence 0. Only for a
    /// registry without a broker (the bindings call <see cref="PublishAsync"/>).
    /// </summary>
    /// <exception cref="RpcServiceException">The topic name is empty or too long.</exception>
    /// <exception cref="InvalidOperationException">The registry publishes through a broker.</exception>
    public PublishReply Publish(Notification notification)
    {
        ArgumentNullException.ThrowIfNull(notification);
        Validate(notification.Topic);
        if (_broker is not null)
        {
            throw new InvalidOperationException("This registry publishes through a broker: call PublishAsync.");
        }

        if (!_topics.TryGetValue(notification.Topic, out var topic))
        {
            return new PublishReply();
        }

        var (sequence, queued, full) = topic.Publish(notification, NotificationTrace.ForPublication(notification), _options.QueueCapacity, this);
        Interlocked.Increment(ref _published);
        Dropped(topic, full);
        return new PublishReply { Sequence = sequence, Queued = queued, Disconnected = full.Count };
    }

    /// <summary>Stops following the broker's feed without waiting for it to stop.</summary>
    public void Dispose() => _feed?.Stop();

    /// <summary>Stops following the broker's feed.</summary>
    public ValueTask DisposeAsync() => _feed?.DisposeAsync() ?? ValueTask.CompletedTask;

    private void Dropped(Topic topic, List<PushSubscriber> full)
    {
        foreach (var subscriber in full)
        {
            Interlocked.Increment(ref _disconnected);
            PushLog.SubscriberDisconnected(_logger, subscriber.Id, subscriber.Topic, subscriber.Capacity);
            Forget(topic, subscriber);
        }
    }

    /// <summary>A binding serialized a publication once for all its subscribers (<see cref="Publication.Encoded{T}"/>).</summary>
    internal void CountEncoding() => Interlocked.Increment(ref _encodings);

    /// <summary>Ends a subscription the subscriber left (<see cref="PushSubscriber.Dispose"/>).</summary>
    internal void Remove(PushSubscriber subscriber)
    {
        if (subscriber.End(reason: null) && _topics.TryGetValue(subscriber.Topic, out var topic))
        {
            Forget(topic, subscriber);
        }
    }

    private void Forget(Topic topic, PushSubscriber subscriber)
    {
        if (topic.Remove(subscriber))
        {
            // Emptied: the topic leaves the dictionary, so a host that saw many topic names come and go holds none of them.
            _topics.TryRemove(new KeyValuePair<string, Topic>(topic.Name, topic));
        }
    }

    private static void Validate(string? topic)
    {
        if (string.IsNullOrEmpty(topic))
        {
            throw new RpcServiceException(RpcErrorCode.InvalidArgument, "A topic name is required.");
        }

        if (topic.Length > PushLimits.MaxTopicLength)
        {
            throw new RpcServiceException(RpcErrorCode.InvalidArgument, $"Topic names are at most {PushLimits.MaxTopicLength} characters; got {topic.Length}.");
        }
    }
}
