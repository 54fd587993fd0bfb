using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push.Internal;

namespace RpcCompare.Push;

/// <summary>The registry as one replica following a broker: publishing through it, its feed's publications, and reading back what the feed missed.</summary>
public sealed partial class TopicRegistry
{
    /// <summary>
    /// A publication from the broker's feed: queued for this replica's subscribers of its topic if it
    /// is the next one; a gap before it is read back from the broker's log first (what the log no
    /// longer holds stays a gap the subscribers see in the numbers).
    /// </summary>
    internal async ValueTask DeliverAsync(Notification notification, CancellationToken cancellationToken)
    {
        _brokerTiming?.Arrived(notification.Topic, notification.Sequence);
        if (!_topics.TryGetValue(notification.Topic, out var topic))
        {
            return;
        }

        var (outcome, expected, full) = topic.Deliver(notification, acceptGap: false, _options.QueueCapacity, this);
        if (outcome != Delivery.Gap)
        {
            Delivered(topic, outcome, full);
            return;
        }

        // A broker failure here leaves the gap open: the topic's next publication reads it again.
        await ReadBackAsync(topic, expected - 1, notification.Sequence - 1, cancellationToken).ConfigureAwait(false);
        (outcome, _, full) = topic.Deliver(notification, acceptGap: true, _options.QueueCapacity, this);
        Delivered(topic, outcome, full);
    }

    /// <summary>
    /// After the feed opened again: for every topic this replica follows, reads back what the broker's
    /// log holds beyond what was delivered. A topic whose number went back (the broker lost its data)
    /// ends its subscribers, who would otherwise wait unknowingly for numbers that will not come again.
    /// </summary>
    internal async Task CatchUpAsync(CancellationToken cancellationToken)
    {
        foreach (var topic in _topics.Values)
        {
            if (topic.Joining is { } joining)
            {
                // Its answer may have left the broker before what the feed missed was published: wait for it, then catch up.
                await joining.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
            }

            if (!topic.IsJoined)
            {
                continue;
            }

            var delivered = topic.Delivered;
            var last = await _broker!.LastSequenceAsync(topic.Name, cancellationToken).ConfigureAwait(false);
            if (last < delivered)
            {
                var ended = topic.EndAll($"The push broker's numbering of topic '{topic.Name}' went back from {delivered} to {last} (it lost its data): subscribe again.");
                _topics.TryRemove(new KeyValuePair<string, Topic>(topic.Name, topic));
                PushLog.NumberingRestarted(_logger, topic.Name, delivered, last, ended);
            }
            else if (last > delivered)
            {
                await ReadBackAsync(topic, delivered, last, cancellationToken).ConfigureAwait(false);
            }
        }
    }

    // Queues what the log holds of (after, through] for the topic: at most half a subscriber's queue, the newest,
    // so a read-back cannot overflow the queues it fills; older numbers stay a gap the subscribers see.
    private async Task ReadBackAsync(Topic topic, long after, long through, CancellationToken cancellationToken)
    {
        var from = Math.Max(after, through - ReplayLimit);
        var missing = await _broker!.ReadAfterAsync(topic.Name, from, (int)(through - from), cancellationToken).ConfigureAwait(false);
        PushLog.GapRead(_logger, topic.Name, after + 1, through, missing.Count);
        foreach (var earlier in missing.Where(m => m.Sequence <= through))
        {
            var (outcome, _, full) = topic.Deliver(earlier, acceptGap: true, _options.QueueCapacity, this);
            Delivered(topic, outcome, full);
        }
    }

    /// <summary>The most publications read back from the broker's log into subscriber queues at once: half a queue.</summary>
    private int ReplayLimit => Math.Max(1, _options.QueueCapacity / 2);

    private void Delivered(Topic topic, Delivery outcome, List<PushSubscriber> full)
    {
        if (outcome == Delivery.Queued)
        {
            Interlocked.Increment(ref _published);
        }

        Dropped(topic, full);
    }

    private async Task<PublishReply> PublishThroughBrokerAsync(Notification notification, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(notification);
        Validate(notification.Topic);
        var (traceParent, traceState) = NotificationTrace.ForPublication(notification);
        if (traceParent != notification.TraceParent || traceState != notification.TraceState)
        {
            // The broker stores what every replica delivers: the trace this host decided on, not the caller's object changed.
            notification = NotificationTrace.Copy(notification, traceParent, traceState);
        }

        var sent = _brokerTiming?.Sending(notification.Topic) ?? 0;
        long sequence;
        try
        {
            sequence = await _broker!.PublishAsync(notification, cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            _brokerTiming?.Failed(notification.Topic, sent);
            throw;
        }
        catch (Exception e)
        {
            _brokerTiming?.Failed(notification.Topic, sent);
            throw BrokerFailed(e);
        }

        _brokerTiming?.Numbered(notification.Topic, sequence, sent);
        return new PublishReply { Sequence = sequence };
    }

    private RpcServiceException BrokerFailed(Exception e)
    {
        _feed!.ReportFailure(e);
        return new RpcServiceException(RpcErrorCode.Internal, $"The push broker ({_broker!.Description}) did not answer: {e.Message}");
    }
}
