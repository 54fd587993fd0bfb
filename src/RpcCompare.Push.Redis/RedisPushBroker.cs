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
public sealed partial class RedisPushBroker : IPushBroker, IAsyncDisposable
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
        Description = "redis " + string.Join(",", configuration.EndPoints.Select(e => e.ToString()));
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

    public long LastSequence(string topic)
    {
        var last = _redis.GetDatabase().StreamRange(Key(topic), "-", "+", 1, Order.Descending);
        return last.Length == 0 ? 0 : NotificationCodec.Sequence(last[0].Id);
    }

    public IReadOnlyList<Notification> ReadLatest(string topic, long after, long through, int count)
    {
        var newestFirst = _redis.GetDatabase().StreamRange(Key(topic), $"(0-{after.ToString(CultureInfo.InvariantCulture)}", $"0-{through.ToString(CultureInfo.InvariantCulture)}", count, Order.Descending);
        return [.. newestFirst.Reverse().Select(e => NotificationCodec.Decode(e.Id, e["n"]))];
    }

    public async Task<IReadOnlyList<Notification>> ReadAfterAsync(string topic, long after, int count, CancellationToken cancellationToken)
    {
        var entries = await _redis.GetDatabase().StreamRangeAsync(Key(topic), $"(0-{after.ToString(CultureInfo.InvariantCulture)}", "+", count)
            .WaitAsync(cancellationToken).ConfigureAwait(false);
        return [.. entries.Select(e => NotificationCodec.Decode(e.Id, e["n"]))];
    }

    public async Task<IAsyncEnumerable<Notification>> OpenFeedAsync(CancellationToken cancellationToken)
    {
        var queue = await _redis.GetSubscriber().SubscribeAsync(_channel).WaitAsync(cancellationToken).ConfigureAwait(false);
        return ReadAsync(queue, cancellationToken);
    }

    public ValueTask DisposeAsync() => _redis.DisposeAsync();

    private async IAsyncEnumerable<Notification> ReadAsync(ChannelMessageQueue queue, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        try
        {
            while (true)
            {
                var message = await queue.ReadAsync(cancellationToken).ConfigureAwait(false);
                if (NotificationCodec.TryDecodeAnnouncement(message.Message, out var notification))
                {
                    yield return notification;
                }
                else if (Interlocked.Exchange(ref _malformedLogged, 1) == 0)
                {
                    // Something else publishes on the channel: its messages are ignored, and said so once.
                    LogMalformed(_logger, _channel.ToString());
                }
            }
        }
        finally
        {
            await queue.UnsubscribeAsync().ConfigureAwait(false);
        }
    }

    private RedisKey Key(string topic) => _options.KeyPrefix + "topic:" + topic;

    [LoggerMessage(1, LogLevel.Warning, "A message on Redis channel '{Channel}' is not a publication of this product; such messages are ignored (logged once).")]
    private static partial void LogMalformed(ILogger logger, string channel);
}
