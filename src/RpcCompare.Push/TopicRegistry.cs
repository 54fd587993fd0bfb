using System.Collections.Concurrent;
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
public sealed class TopicRegistry
{
    private readonly ConcurrentDictionary<string, Topic> _topics = new(StringComparer.Ordinal);
    private readonly PushOptions _options;
    private readonly ILogger<TopicRegistry> _logger;
    private long _nextSubscriberId;
    private long _published;
    private long _disconnected;
    private long _encodings;

    public TopicRegistry(IOptions<PushOptions> options, ILogger<TopicRegistry> logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        _options = options.Value;
        if (_options.QueueCapacity < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(options), _options.QueueCapacity, "Push:QueueCapacity must be at least 1.");
        }

        _logger = logger;
    }

    /// <summary>What the registry holds and has done, for tests and the runner's report.</summary>
    public PushStatistics Statistics => new(
        _topics.Count,
        _topics.Values.Sum(t => t.Count),
        Interlocked.Read(ref _published),
        Interlocked.Read(ref _disconnected),
        Interlocked.Read(ref _encodings));

    /// <summary>Registers a subscriber; every publication accepted after this returns reaches its queue.</summary>
    /// <exception cref="RpcServiceException">The topic name is empty or too long.</exception>
    public PushSubscriber Subscribe(string topic, out long lastSequence)
    {
        Validate(topic);
        var subscriber = new PushSubscriber(this, topic, Interlocked.Increment(ref _nextSubscriberId), _options.QueueCapacity);
        while (true)
        {
            var entry = _topics.GetOrAdd(topic, static name => new Topic(name));
            if (entry.TryAdd(subscriber, out lastSequence))
            {
                return subscriber;
            }

            // The topic emptied and left the dictionary between the lookup and the lock: take the new one.
        }
    }

    /// <summary>
    /// Gives the notification the topic's next sequence number and queues it for every subscriber.
    /// A topic nobody subscribes to takes nothing: the reply says 0 queued and sequence 0.
    /// </summary>
    /// <exception cref="RpcServiceException">The topic name is empty or too long.</exception>
    public PublishReply Publish(Notification notification)
    {
        ArgumentNullException.ThrowIfNull(notification);
        Validate(notification.Topic);
        if (!_topics.TryGetValue(notification.Topic, out var topic))
        {
            return new PublishReply();
        }

        var (sequence, queued, full) = topic.Publish(notification, _options.QueueCapacity, this);
        Interlocked.Increment(ref _published);
        foreach (var subscriber in full)
        {
            Interlocked.Increment(ref _disconnected);
            PushLog.SubscriberDisconnected(_logger, subscriber.Id, subscriber.Topic, subscriber.Capacity);
            Forget(topic, subscriber);
        }

        return new PublishReply { Sequence = sequence, Queued = queued, Disconnected = full.Count };
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
