using System.Collections.Concurrent;
using System.Globalization;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using NATS.Client.Core;
using NATS.Client.JetStream;
using NATS.Client.JetStream.Models;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Nats;

/// <summary>
/// Push across replicas through NATS JetStream. Each topic is a stream of its own (<see cref="TopicStreams"/>),
/// so the stream's sequence numbers number the topic densely, whichever replica published, and the stream
/// is the log a gap is read back from. The server republishes every publication it stored, with its
/// number (<c>Nats-Sequence</c>), on a feed subject every replica follows: storing and announcing are one
/// step, as Redis's script makes them, and a topic's announcements come in the order of its numbers.
/// The feed ends when the connection drops (<see cref="NatsFeed"/>).
/// </summary>
/// <remarks>
/// A stream per topic keeps numbering and reading back simple (one stream for all topics would number
/// them together); it costs the server a directory per topic with file storage. Streams are created
/// on a topic's first publication on each replica and never deleted here: <c>nats stream rm</c> them
/// when topics are retired.
/// </remarks>
public sealed partial class NatsPushBroker : IPushBroker, IDisposable, IAsyncDisposable
{
    // Streams created or being created; forgotten wholesale past this many topics rather than growing without bound.
    private const int MaxKnownStreams = 100_000;

    // JetStream's answers to a create that another replica's create of the same stream got ahead of.
    private const int SubjectsOverlap = 10065;
    private const int NameInUse = 10058;

    // A publication's tries on "no responders" and the wait after each: 1.25 s of patience in all, which a publication
    // to a stream removed since (nats stream rm) or a JetStream that is down now also waits before failing or recreating.
    private const int PublishAttempts = 5;
    private static readonly TimeSpan PublishRetryWait = TimeSpan.FromMilliseconds(250);

    private readonly NatsConnection _nats;
    private readonly NatsJSContext _jetStream;
    private readonly NatsPushOptions _options;
    private readonly TopicStreams _streams;
    // By topic: the creation of its stream, which a publication waits for. A topic's first subscriber on this replica
    // starts it when the stream does not exist yet, so that the first publication does not pay for it: creating a
    // file-storage stream takes about 2 ms here, but 0.5 to 1.2 s once in 40 (the server syncs to disk).
    private readonly ConcurrentDictionary<string, Lazy<Task>> _streamsReady = new(StringComparer.Ordinal);
    private readonly ILogger<NatsPushBroker> _logger;
    private int _malformedLogged;

    public NatsPushBroker(IOptions<NatsPushOptions> options, ILogger<NatsPushBroker> logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        _options = options.Value;
        if (string.IsNullOrWhiteSpace(_options.Url))
        {
            throw new ArgumentException("Push:Nats:Url (--push-nats) is required: the NATS server the replicas share, with JetStream, e.g. nats://127.0.0.1:4222.", nameof(options));
        }

        if (_options.MaxMessages < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(options), _options.MaxMessages, "Push:Nats:MaxMessages must be at least 1.");
        }

        _streams = new TopicStreams(_options.Prefix);
        Description = "nats " + RedactedUrl(_options.Url);
        _logger = logger;
        // No logger factory: the client would log every reconnect attempt; the registry logs the broker's failures, rate-limited.
        _nats = new NatsConnection(new NatsOpts { Url = _options.Url, Name = "rpccompare-host" });
        _jetStream = new NatsJSContext(_nats);
    }

    public string Description { get; }

    /// <summary>How long a question to JetStream (<see cref="LastSequenceAsync"/>, a read back) waits for the server: the client's request timeout.</summary>
    public TimeSpan RequestTimeout => _nats.Opts.RequestTimeout;

    public async Task<long> PublishAsync(Notification notification, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(notification);
        var stream = _streams.For(notification.Topic);
        var body = NotificationProtobuf.Serialize(notification);
        await StreamReady(stream).WaitAsync(cancellationToken).ConfigureAwait(false);

        // A message id per publication: should the server have stored one whose answer was lost, storing it again (below)
        // returns the same number instead of a second copy (JetStream de-duplicates ids within two minutes).
        // The client tries again only on "no responders", which a stream just created can answer for a moment when
        // another replica creates it at the same time (nats-server 2.9.10: one first publication in about a hundred
        // such pairs); the id makes a second try safe.
        var publish = new NatsJSPubOpts { MsgId = Guid.NewGuid().ToString("N"), RetryAttempts = PublishAttempts, RetryWaitBetweenAttempts = PublishRetryWait };
        PubAckResponse ack;
        try
        {
            ack = await _jetStream.PublishAsync(stream.Subject, body, opts: publish, cancellationToken: cancellationToken).ConfigureAwait(false);
        }
        catch (NatsJSPublishNoResponseException)
        {
            // No answer from a stream that exists is a timeout: the publication may have been stored, and the publisher
            // is told it failed. The stream may also have been deleted since this replica created it (nats stream rm):
            // then it is created again.
            if (await StreamExistsAsync(stream, cancellationToken).ConfigureAwait(false))
            {
                throw;
            }

            ForgetStream(stream.Topic);
            await StreamReady(stream).WaitAsync(cancellationToken).ConfigureAwait(false);
            ack = await _jetStream.PublishAsync(stream.Subject, body, opts: publish, cancellationToken: cancellationToken).ConfigureAwait(false);
        }

        ack.EnsureSuccess();
        return checked((long)ack.Seq);
    }

    public async Task<long> LastSequenceAsync(string topic, CancellationToken cancellationToken)
    {
        var stream = _streams.For(topic);
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bounded.CancelAfter(RequestTimeout);
        try
        {
            var info = await _jetStream.GetStreamAsync(stream.Stream, cancellationToken: bounded.Token).ConfigureAwait(false);
            return checked((long)info.Info.State.LastSeq);
        }
        catch (NatsJSApiException e) when (e.Error.Code == 404)
        {
            // Nothing published yet (or the stream was removed): have it ready for the first publication. A failure
            // here is the publication's to report (it waits for the same creation, or tries again).
            ForgetStream(stream.Topic);
            _ = StreamReady(stream).ContinueWith(static t => t.Exception, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
            return 0L;
        }
        catch (OperationCanceledException) when (bounded.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"Asking for the last number of {stream.Stream} took longer than {RequestTimeout.TotalSeconds:0.#} s.");
        }
    }

    public async Task<IReadOnlyList<Notification>> ReadLatestAsync(string topic, long after, long through, int count, CancellationToken cancellationToken)
    {
        var from = Math.Max(after + 1, through - count + 1);
        if (from > through)
        {
            return [];
        }

        var read = await ReadAfterAsync(topic, from - 1, (int)(through - from + 1), cancellationToken).ConfigureAwait(false);
        return [.. read.Where(n => n.Sequence <= through)];
    }

    public async Task<IReadOnlyList<Notification>> ReadAfterAsync(string topic, long after, int count, CancellationToken cancellationToken)
    {
        var stream = _streams.For(topic);
        // The client retries creating a consumer for as long as JetStream does not answer: bounded here, so a feed
        // reading a gap back does not wait forever on a server whose JetStream is down.
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bounded.CancelAfter(RequestTimeout);
        List<Notification> read = [];
        try
        {
            var consumer = await _jetStream.CreateOrderedConsumerAsync(
                stream.Stream,
                new NatsJSOrderedConsumerOpts
                {
                    DeliverPolicy = ConsumerConfigDeliverPolicy.ByStartSequence,
                    OptStartSeq = checked((ulong)after + 1),
                    // Removed by the client when the read ends; by the server soon after, if that removal fails.
                    InactiveThreshold = TimeSpan.FromSeconds(30),
                },
                bounded.Token).ConfigureAwait(false);
            await foreach (var message in consumer.FetchNoWaitAsync<byte[]>(new NatsJSFetchOpts { MaxMsgs = count }, cancellationToken: bounded.Token).ConfigureAwait(false))
            {
                var sequence = checked((long)(message.Metadata ?? throw new InvalidDataException($"Stream {stream.Stream} sent a message without its metadata.")).Sequence.Stream);
                read.Add(NotificationProtobuf.Deserialize(message.Data, sequence));
            }
        }
        catch (NatsJSApiException e) when (e.Error.Code == 404)
        {
            // No stream: nothing was published (or it was removed).
        }
        catch (OperationCanceledException) when (bounded.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"Reading {stream.Stream} back took longer than {RequestTimeout.TotalSeconds:0.#} s.");
        }

        return read;
    }

    public Task<IPushFeed> OpenFeedAsync(CancellationToken cancellationToken) =>
        NatsFeed.OpenAsync(_nats, _streams, ReportMalformed, cancellationToken);

    public void Dispose() => DisposeAsync().AsTask().GetAwaiter().GetResult();

    public ValueTask DisposeAsync() => _nats.DisposeAsync();

    private static string RedactedUrl(string urls) => string.Join(",", urls.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries).Select(url =>
        Uri.TryCreate(url.Contains("://", StringComparison.Ordinal) ? url : "nats://" + url, UriKind.Absolute, out var uri)
            ? $"{uri.Scheme}://{uri.Host}:{(uri.IsDefaultPort ? 4222 : uri.Port).ToString(CultureInfo.InvariantCulture)}"
            : "(a URL that does not parse)"));

    // The stream's creation, started once per topic; a failed one is replaced by the next caller's.
    private Task StreamReady(TopicStream stream)
    {
        if (!_streamsReady.TryGetValue(stream.Topic, out var ready) || (ready.IsValueCreated && (ready.Value.IsFaulted || ready.Value.IsCanceled)))
        {
            if (ready is not null)
            {
                _streamsReady.TryRemove(KeyValuePair.Create(stream.Topic, ready));
            }

            // Counting takes every lock of the dictionary: only when a topic is new to this replica.
            if (_streamsReady.Count >= MaxKnownStreams)
            {
                _streamsReady.Clear();
            }

            ready = _streamsReady.GetOrAdd(stream.Topic, _ => new Lazy<Task>(() => CreateStreamAsync(stream)));
        }

        return ready.Value;
    }

    private void ForgetStream(string topic)
    {
        if (_streamsReady.TryGetValue(topic, out var ready) && ready.IsValueCreated && ready.Value.IsCompleted)
        {
            // Only a finished creation: one still running is the one every caller should wait for.
            _streamsReady.TryRemove(KeyValuePair.Create(topic, ready));
        }
    }

    private async Task<bool> StreamExistsAsync(TopicStream stream, CancellationToken cancellationToken)
    {
        try
        {
            await _jetStream.GetStreamAsync(stream.Stream, cancellationToken: cancellationToken).ConfigureAwait(false);
            return true;
        }
        catch (NatsJSApiException e) when (e.Error.Code == 404)
        {
            return false;
        }
    }

    private async Task CreateStreamAsync(TopicStream stream)
    {
        var config = new StreamConfig(stream.Stream, [stream.Subject])
        {
            MaxMsgs = _options.MaxMessages,
            Discard = StreamConfigDiscard.Old,
            Storage = _options.MemoryStorage ? StreamConfigStorage.Memory : StreamConfigStorage.File,
            Republish = new Republish { Src = stream.Subject, Dest = stream.Feed },
        };
        try
        {
            // Not the caller's cancellation: other callers wait for the same creation.
            await _jetStream.CreateOrUpdateStreamAsync(config, CancellationToken.None).ConfigureAwait(false);
        }
        catch (NatsJSApiException e) when (e.Error.ErrCode is SubjectsOverlap or NameInUse)
        {
            // Another replica created it between this one's update (not found) and its create: the stream the topic
            // needs is there.
            if (!await StreamExistsAsync(stream, CancellationToken.None).ConfigureAwait(false))
            {
                throw;
            }
        }
    }

    // Something else publishes on the feed subjects: its messages are ignored, and said so once per broker.
    private void ReportMalformed(string subject)
    {
        if (Interlocked.Exchange(ref _malformedLogged, 1) == 0)
        {
            LogMalformed(_logger, subject);
        }
    }

    [LoggerMessage(1, LogLevel.Warning, "A message on NATS subject '{Subject}' is not a publication this product's streams republished; such messages are ignored (logged once).")]
    private static partial void LogMalformed(ILogger logger, string subject);
}
