using RpcCompare.Push;
using RpcCompare.Push.Nats;
using RpcCompare.Push.Redis;

namespace RpcCompare.Host;

/// <summary>
/// Publish/subscribe for every push binding: the host's own topics, or topics shared with every other
/// host on the same broker, Redis (<c>--push-redis</c>) or NATS JetStream (<c>--push-nats</c>), as
/// replicas behind a balancer share them (docs/push.md).
/// </summary>
internal static class HostPush
{
    /// <exception cref="ArgumentException">A broker setting that cannot work; the message says which.</exception>
    public static void Add(IServiceCollection services, IConfiguration configuration)
    {
        // Push:QueueCapacity sizes each subscriber's queue.
        services.AddPushServices().Configure<PushOptions>(configuration.GetSection("Push"));
        var redis = Read<RedisPushOptions>(configuration, RedisPushOptions.SectionName);
        var nats = Read<NatsPushOptions>(configuration, NatsPushOptions.SectionName);
        var useRedis = !string.IsNullOrWhiteSpace(redis?.Configuration);
        var useNats = !string.IsNullOrWhiteSpace(nats?.Url);
        if (useRedis && useNats)
        {
            throw new ArgumentException("--push-redis and --push-nats both given: replicas share topics through one broker; choose one.");
        }

        if (useRedis)
        {
            Validate(redis!);
            services.AddRedisPushBroker(options => configuration.GetSection(RedisPushOptions.SectionName).Bind(options));
        }
        else if (useNats)
        {
            Validate(nats!);
            services.AddNatsPushBroker(options => configuration.GetSection(NatsPushOptions.SectionName).Bind(options));
        }
        else
        {
            return;
        }

        services.AddHostedService<FollowBrokerAtStart>();
    }

    private static T? Read<T>(IConfiguration configuration, string section)
    {
        try
        {
            return configuration.GetSection(section).Get<T>();
        }
        catch (InvalidOperationException e)
        {
            // A value the binder cannot read (--Push:Redis:MaxLength many).
            throw new ArgumentException($"{section}: {e.Message}", e);
        }
    }

    private static void Validate(RedisPushOptions redis)
    {
        StackExchange.Redis.ConfigurationOptions parsed;
        try
        {
            parsed = StackExchange.Redis.ConfigurationOptions.Parse(redis.Configuration);
        }
        catch (ArgumentException e)
        {
            throw new ArgumentException($"--push-redis '{redis.Configuration}' is not a Redis configuration (e.g. 127.0.0.1:6379): {e.Message}", e);
        }

        if (parsed.EndPoints.Count == 0)
        {
            throw new ArgumentException($"--push-redis '{redis.Configuration}' names no Redis server (e.g. 127.0.0.1:6379).");
        }

        if (redis.MaxLength < 1)
        {
            throw new ArgumentException($"Push:Redis:MaxLength must be at least 1; got {redis.MaxLength}.");
        }
    }

    private static void Validate(NatsPushOptions nats)
    {
        foreach (var url in nats.Url.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            if (!Uri.TryCreate(url, UriKind.Absolute, out var uri) || uri.Scheme is not ("nats" or "tls" or "ws" or "wss") || uri.Host.Length == 0)
            {
                throw new ArgumentException($"--push-nats '{nats.Url}': '{url}' is not a NATS server URL (e.g. nats://127.0.0.1:4222).");
            }
        }

        if (nats.MaxMessages < 1)
        {
            throw new ArgumentException($"Push:Nats:MaxMessages must be at least 1; got {nats.MaxMessages}.");
        }

        if (!NatsPushOptions.IsValidPrefix(nats.Prefix))
        {
            throw new ArgumentException($"Push:Nats:Prefix '{nats.Prefix}' must be letters, digits, '-' and '_' only.");
        }
    }

    /// <summary>Creates the registry when the host starts, so it follows the broker before the first subscriber comes.</summary>
    private sealed class FollowBrokerAtStart(TopicRegistry registry) : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken)
        {
            GC.KeepAlive(registry);
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }
}
