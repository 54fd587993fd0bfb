using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Internal;

/// <summary>
/// How a subscriber gets into a topic that a broker numbers: the join (the topic's last number, asked
/// once however many subscribers come while it is asked) and a resume (what the log holds after the
/// subscriber's last number, with what is published meanwhile held back until it is in the queue).
/// </summary>
internal sealed partial class Topic
{
    /// <summary>
    /// Registers a subscriber; the last number before its first publication, or null when the topic already
    /// emptied and left the registry. Without a broker it completes at once. With one, a subscriber resuming
    /// <paramref name="after"/> a number first gets the newest publications after it the log holds, at most
    /// <paramref name="replayLimit"/>, in its queue before anything live.
    /// </summary>
    /// <exception cref="Exception">The broker did not answer (the topic is then closed if empty).</exception>
    public async ValueTask<long?> TryAddAsync(PushSubscriber subscriber, long? after, int replayLimit, TopicRegistry registry, CancellationToken cancellationToken)
    {
        TaskCompletionSource? starts = null;
        Task? join;
        lock (_lock)
        {
            if (_removed)
            {
                return null;
            }

            if (_broker is null)
            {
                _subscribers = [.. _subscribers, subscriber];
                return _sequence;
            }

            _entering++;
            if (!_joined && _join is null)
            {
                starts = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                _join = starts.Task;
                _arrivedWhileJoining = new Queue<long>();
            }

            join = _joined ? null : _join;
        }

        try
        {
            if (starts is not null)
            {
                // Outside the lock, and not this caller's to cancel: the others wait for the same answer.
                _ = JoinAsync(_broker, starts);
            }

            if (join is not null)
            {
                await join.WaitAsync(cancellationToken).ConfigureAwait(false);
            }

            return await AddJoinedAsync(_broker, subscriber, after, replayLimit, registry, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            lock (_lock)
            {
                _entering--;
                // A subscriber the broker failed (or one dropped while it resumed) may leave the topic empty: it closes.
                _removed |= _subscribers.Length == 0 && _entering == 0;
            }
        }
    }

    private async Task JoinAsync(IPushBroker broker, TaskCompletionSource joined)
    {
        try
        {
            var last = await broker.LastSequenceAsync(Name, CancellationToken.None).ConfigureAwait(false);
            lock (_lock)
            {
                // What the feed brought while the question was out and numbered after the answer was published
                // before any subscriber here: counted in, so the first subscribers start after it. A gap among
                // them ends the count; the feed's next publication then reads the rest back.
                _sequence = last;
                foreach (var sequence in _arrivedWhileJoining!.Order())
                {
                    if (sequence == _sequence + 1)
                    {
                        _sequence = sequence;
                    }
                    else if (sequence > _sequence + 1)
                    {
                        break;
                    }
                }

                _joined = true;
                _join = null;
                _arrivedWhileJoining = null;
            }

            joined.SetResult();
        }
        catch (Exception e)
        {
            lock (_lock)
            {
                // The next subscriber asks again.
                _join = null;
                _arrivedWhileJoining = null;
            }

            joined.SetException(e);
        }
    }

    // The topic has joined: a new subscriber starts at its number; a resuming one first has its queue filled from the log.
    private async ValueTask<long?> AddJoinedAsync(IPushBroker broker, PushSubscriber subscriber, long? after, int replayLimit, TopicRegistry registry, CancellationToken cancellationToken)
    {
        Resume resume;
        lock (_lock)
        {
            if (_removed)
            {
                return null;
            }

            if (after is null || after >= _sequence)
            {
                if (after > _sequence)
                {
                    // The subscriber saw more than this replica's feed has brought yet (it lags the host the subscriber
                    // left): what comes up to that number it already has.
                    subscriber.Floor = after.Value;
                }

                _subscribers = [.. _subscribers, subscriber];
                return Math.Max(_sequence, subscriber.Floor);
            }

            // Publications queued from now on wait in the resume until the log's part is in the queue.
            resume = new Resume(subscriber, after.Value, _sequence, subscriber.Capacity - replayLimit);
            _resuming.Add(resume);
        }

        IReadOnlyList<Notification> missed;
        try
        {
            missed = await broker.ReadLatestAsync(Name, resume.After, resume.Through, replayLimit, cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            lock (_lock)
            {
                _resuming.Remove(resume);
            }

            throw;
        }

        lock (_lock)
        {
            _resuming.Remove(resume);
            if (_removed)
            {
                return null;
            }

            // Its own queue, empty until now and at most filled to capacity by these two: nothing can overflow it.
            foreach (var earlier in missed)
            {
                subscriber.TryEnqueue(new Publication(earlier, registry));
            }

            foreach (var held in resume.Held)
            {
                subscriber.TryEnqueue(held);
            }

            if (!subscriber.IsEnded)
            {
                _subscribers = [.. _subscribers, subscriber];
            }

            return _sequence;
        }
    }
}

/// <summary>
/// A subscriber resuming after <see cref="After"/> while the log's part, up to <see cref="Through"/>, is read:
/// what the topic queues meanwhile waits in <see cref="Held"/> (at most <see cref="Room"/>) to follow it.
/// </summary>
internal sealed record Resume(PushSubscriber Subscriber, long After, long Through, int Room)
{
    public List<Publication> Held { get; } = [];
}
