using System.Globalization;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using NATS.Client.Core;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Nats;

/// <summary>
/// One subscription to the feed subjects. The client resubscribes on its own when its connection comes
/// back, silently: what was stored meanwhile never reaches it. So the feed ends as soon as the connection
/// drops, and the registry opens a new one (which waits for the connection) and reads back from the streams.
/// </summary>
/// <remarks>
/// Not on <c>ConnectionOpened</c>, as the Redis feed ends on its restore event: the client raises it for its
/// first connection too, from a background task, so a feed opened with the connection could be ended at
/// any later moment by its own opening.
/// </remarks>
internal sealed class NatsFeed : IPushFeed
{
    // Headers the server sets on a republished message.
    private const string SequenceHeader = "Nats-Sequence";
    private const string StreamHeader = "Nats-Stream";

    // Publications can come in bursts far above what one replica's feed drains at once; past this the client
    // drops one (and the feed ends, so the registry reads every topic back).
    private const int Capacity = 65_536;

    private readonly NatsConnection _nats;
    private readonly TopicStreams _streams;
    private readonly Action<string> _reportMalformed;
    private readonly CancellationTokenSource _interrupted = new();

    private NatsFeed(NatsConnection nats, TopicStreams streams, Action<string> reportMalformed)
    {
        _nats = nats;
        _streams = streams;
        _reportMalformed = reportMalformed;
        _nats.ConnectionDisconnected += InterruptAsync;
        _nats.MessageDropped += InterruptIfMineAsync;
    }

    private INatsSub<byte[]>? Subscription { get; set; }

    /// <summary>Subscribes to every topic's republished publications; returns once the server has the subscription.</summary>
    /// <param name="nats">The broker's connection.</param>
    /// <param name="streams">Where topics live: the feed subjects, and each topic's stream for the check.</param>
    /// <param name="reportMalformed">Called with the subject of a message that is not a publication.</param>
    /// <param name="cancellationToken">Ends the wait for the server.</param>
    public static async Task<IPushFeed> OpenAsync(NatsConnection nats, TopicStreams streams, Action<string> reportMalformed, CancellationToken cancellationToken)
    {
        var feed = new NatsFeed(nats, streams, reportMalformed);
        try
        {
            feed.Subscription = await nats.SubscribeCoreAsync<byte[]>(
                streams.FeedSubjects,
                opts: new NatsSubOpts { ChannelOpts = new NatsSubChannelOpts { Capacity = Capacity, FullMode = BoundedChannelFullMode.DropNewest } },
                cancellationToken: cancellationToken).ConfigureAwait(false);
            // The server has the subscription once it answers a ping: anything stored from now on is in the feed.
            await nats.PingAsync(cancellationToken).ConfigureAwait(false);
            return feed;
        }
        catch
        {
            await feed.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    public async IAsyncEnumerable<Notification> ReadAllAsync([EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var messages = (Subscription ?? throw new InvalidOperationException("The feed is not open.")).Msgs;
        using var either = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, _interrupted.Token);
        var interrupted = false;
        var buffered = 0;
        while (true)
        {
            NatsMsg<byte[]> message;
            if (interrupted)
            {
                // What arrived before the interruption is still good: hand it on, then end (the registry reads back the
                // rest). Only that much: after a reconnect the client fills the same channel again.
                if (buffered-- <= 0 || !messages.TryRead(out message))
                {
                    yield break;
                }
            }
            else
            {
                try
                {
                    message = await messages.ReadAsync(either.Token).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (_interrupted.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
                {
                    interrupted = true;
                    buffered = messages.CanCount ? messages.Count : 0;
                    continue;
                }
                catch (ChannelClosedException)
                {
                    // The connection was disposed under the feed.
                    yield break;
                }
            }

            if (TryDecode(message, out var notification))
            {
                yield return notification;
            }
            else
            {
                _reportMalformed(message.Subject);
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        _nats.ConnectionDisconnected -= InterruptAsync;
        _nats.MessageDropped -= InterruptIfMineAsync;
        if (Subscription is { } subscription)
        {
            await subscription.DisposeAsync().ConfigureAwait(false);
        }

        _interrupted.Dispose();
    }

    private bool TryDecode(NatsMsg<byte[]> message, out Notification notification)
    {
        notification = null!;
        if (message.Headers is not { } headers
            || !headers.TryGetLastValue(SequenceHeader, out var sequenceText)
            || !long.TryParse(sequenceText, NumberStyles.None, CultureInfo.InvariantCulture, out var sequence)
            || sequence < 1
            || !headers.TryGetLastValue(StreamHeader, out var streamName)
            || message.Data is null
            || !NotificationProtobuf.TryDeserialize(message.Data, sequence, out notification))
        {
            return false;
        }

        // Anyone may publish on the feed's subjects; only what a topic's own stream republished counts.
        return _streams.For(notification.Topic).Stream == streamName;
    }

    private ValueTask InterruptAsync(object? sender, NatsEventArgs e)
    {
        try
        {
            _interrupted.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The feed closed while the connection dropped: nothing is reading it.
        }

        return ValueTask.CompletedTask;
    }

    // The client dropped a publication because the feed was full (a burst the host could not keep up with): nothing
    // would read it back until the topic's next publication, which may never come. Ending the feed reads every topic back.
    private ValueTask InterruptIfMineAsync(object? sender, NatsMessageDroppedEventArgs e) =>
        ReferenceEquals(e.Subscription, Subscription) ? InterruptAsync(sender, e) : ValueTask.CompletedTask;
}
