using System.Globalization;
using System.Runtime.CompilerServices;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using RpcCompare.Contracts.Push;
using StackExchange.Redis;

namespace RpcCompare.Push.Redis;

/// <summary>
/// Push across replicas through Redis. Each topic is a stream (<c>{prefix}{topic}</c>) whose entry ids
/// are <c>0-1</c>, <c>0-2</c>, …: Redis numbers a topic's publications densely, whichever replica made
/// them, and the stream is the log a gap is read back from. A script appends and announces in one
/// step, on one channel (<c>{prefix}feed</c>) every replica follows, so the announcements of a topic
/// come in the order of its numbers.
/// </summary>
/// <remarks>
/// StackExchange.Redis multiplexes one connection and never blocks it (no <c>XREAD BLOCK</c>), so the
/// live path is Pub/Sub; Pub/Sub loses what is published while a replica is disconnected, which the
/// registry notices as a gap at the topic's next publication and reads back with <c>XRANGE</c>.
/// </remarks>
public sealed partial class RedisPushBroker : IPushBroker, IDisposable, IAsyncDisposable
{
    // Appends with the next id in the 0-N series (Redis 7.0: explicit time part, generated sequence part), trims the
    // log, and announces "N <notification>" on the channel: one script, so no other publication comes between the two.
    private const string PublishScript = """
        local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '0-*', 'n', ARGV[2])
        local sequence = string.sub(id, 3)
        redis.call('PUBLISH', ARGV[3], sequence .. ' ' .. ARGV[2])
        return sequence
        """;

    private readonly ConnectionMultiplexer _redis;
    private readonly RedisPushOptions _options;
    private readonly RedisChannel _channel;
    private readonly ILogger<RedisPushBroker> _logger;
    private int _malformedLogged;

    public RedisPushBroker(IOptions<RedisPushOptions> options, ILogger<RedisPushBroker> logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        _options = options.Value;
        if (string.IsNullOrWhiteSpace(_options.Configuration))
        {
            throw new ArgumentException("Push:Redis:Configuration (--push-redis) is required: the Redis the replicas share, e.g. 127.0.0.1:6379.", nameof(options));
        }

        if (_options.MaxLength < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(options), _options.MaxLength, "Push:Redis:MaxLength must be at least 1.");
        }

        var configuration = ConfigurationOptions.Parse(_options.Configuration);
        // Start without Redis and connect when it comes: until then, subscribing and publishing fail with a clear error.
        configuration.AbortOnConnectFail = false;
        configuration.ClientName ??= "rpccompare-host";
        // The script publishes on the channel by its full name: a prefix would leave the feed listening elsewhere.
        configuration.ChannelPrefix = default;
        Description = "redis " + string.Join(",", configuration.EndPoints.Select(e => e switch
        {
            System.Net.DnsEndPoint dns => $"{dns.Host}:{dns.Port}",
            _ => e.ToString(),
        }));
        _logger = logger;
        _channel = RedisChannel.Literal(_options.KeyPrefix + "feed");
        _redis = ConnectionMultiplexer.Connect(configuration);
    }

    public string Description { get; }

    public async Task<long> PublishAsync(Notification notification, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(notification);
        var result = await _redis.GetDatabase().ScriptEvaluateAsync(
            PublishScript,
            [Key(notification.Topic)],
            [_options.MaxLength, NotificationCodec.Encode(notification), _channel.ToString()]).WaitAsync(cancellationToken).ConfigureAwait(false);
        return long.Parse((string)result!, CultureInfo.InvariantCulture);
    }

    public async Task<long> LastSequenceAsync(string topic, CancellationToken cancellationToken)
    {
        var last = await _redis.GetDatabase().StreamRangeAsync(Key(topic), "-", "+", 1, Order.Descending)
            .WaitAsync(cancellationToken).ConfigureAwait(false);
        return last.Length == 0 ? 0 : NotificationCodec.Sequence(last[0].Id);
    }

    public async Task<IReadOnlyList<Notification>> ReadLatestAsync(string topic, long after, long through, int count, CancellationToken cancellationToken)
    {
        var newestFirst = await _redis.GetDatabase().StreamRangeAsync(
            Key(topic), $"(0-{after.ToString(CultureInfo.InvariantCulture)}", $"0-{through.ToString(CultureInfo.InvariantCulture)}", count, Order.Descending)
            .WaitAsync(cancellationToken).ConfigureAwait(false);
        return [.. newestFirst.Reverse().Select(e => NotificationCodec.Decode(e.Id, e["n"]))];
    }

    public async Task<IReadOnlyList<Notification>> ReadAfterAsync(string topic, long after, int count, CancellationToken cancellationToken)
    {
        var entries = await _redis.GetDatabase().StreamRangeAsync(Key(topic), $"(0-{after.ToString(CultureInfo.InvariantCulture)}", "+", count)
            .WaitAsync(cancellationToken).ConfigureAwait(false);
        return [.. entries.Select(e => NotificationCodec.Decode(e.Id, e["n"]))];
    }

    public async Task<IPushFeed> OpenFeedAsync(CancellationToken cancellationToken)
    {
        var subscriber = _redis.GetSubscriber();
        var feed = new Feed(this);
        try
        {
            feed.Queue = await subscriber.SubscribeAsync(_channel).WaitAsync(cancellationToken).ConfigureAwait(false);
            return feed;
        }
        catch
        {
            // StackExchange.Redis registers the queue before the server confirms: a failed subscription would leave
            // it behind, filling forever once Redis is back. This broker is the channel's only user on its connection.
            await feed.DisposeAsync().ConfigureAwait(false);
            await subscriber.UnsubscribeAsync(_channel, handler: null, CommandFlags.FireAndForget).ConfigureAwait(false);
            throw;
        }
    }

    public void Dispose() => _redis.Dispose();

    public ValueTask DisposeAsync() => _redis.DisposeAsync();

    private RedisKey Key(string topic) => _options.KeyPrefix + "topic:" + topic;

    /// <summary>
    /// One subscription to the channel. StackExchange.Redis resubscribes on its own when its connection
    /// comes back, silently: what was published meanwhile is lost to the queue. So the feed ends when the
    /// connection is restored, and the registry opens a new one and reads back from the log.
    /// </summary>
    private sealed class Feed : IPushFeed
    {
        private readonly RedisPushBroker _broker;
        private readonly CancellationTokenSource _interrupted = new();

        public Feed(RedisPushBroker broker)
        {
            _broker = broker;
            _broker._redis.ConnectionRestored += Interrupt;
        }

        public ChannelMessageQueue? Queue { get; set; }

        public async IAsyncEnumerable<Notification> ReadAllAsync([EnumeratorCancellation] CancellationToken cancellationToken)
        {
            var queue = Queue ?? throw new InvalidOperationException("The feed is not open.");
            using var either = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, _interrupted.Token);
            while (true)
            {
                ChannelMessage message;
                try
                {
                    message = await queue.ReadAsync(either.Token).ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (_interrupted.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
                {
                    yield break;
                }

                if (NotificationCodec.TryDecodeAnnouncement(message.Message, out var notification))
                {
                    yield return notification;
                }
                else if (Interlocked.Exchange(ref _broker._malformedLogged, 1) == 0)
                {
                    // Something else publishes on the channel: its messages are ignored, and said so once.
                    LogMalformed(_broker._logger, _broker._channel.ToString());
                }
            }
        }

        public async ValueTask DisposeAsync()
        {
            _broker._redis.ConnectionRestored -= Interrupt;
            if (Queue is { } queue)
            {
                await queue.UnsubscribeAsync(CommandFlags.FireAndForget).ConfigureAwait(false);
            }

            _interrupted.Dispose();
        }

        private void Interrupt(object? sender, ConnectionFailedEventArgs e)
        {
            try
            {
                _interrupted.Cancel();
            }
            catch (ObjectDisposedException)
            {
                // The feed closed while the connection came back: nothing is reading it.
            }
        }
    }

    [LoggerMessage(1, LogLevel.Warning, "A message on Redis channel '{Channel}' is not a publication of this product; such messages are ignored (logged once).")]
    private static partial void LogMalformed(ILogger logger, string channel);
}
