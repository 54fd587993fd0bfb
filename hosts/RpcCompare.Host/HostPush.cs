using RpcCompare.Push;
using RpcCompare.Push.Redis;

namespace RpcCompare.Host;

/// <summary>
/// Publish/subscribe for every push binding: the host's own topics, or with <c>--push-redis</c> topics
/// shared with every other host on the same Redis (replicas behind a balancer; docs/push.md).
/// </summary>
internal static class HostPush
{
    /// <exception cref="ArgumentException">A Redis setting that cannot work; the message says which.</exception>
    public static void Add(IServiceCollection services, IConfiguration configuration)
    {
        // Push:QueueCapacity sizes each subscriber's queue.
        services.AddPushServices().Configure<PushOptions>(configuration.GetSection("Push"));
        RedisPushOptions? redis;
        try
        {
            redis = configuration.GetSection(RedisPushOptions.SectionName).Get<RedisPushOptions>();
        }
        catch (InvalidOperationException e)
        {
            // A value the binder cannot read (--Push:Redis:MaxLength many).
            throw new ArgumentException($"Push:Redis: {e.Message}", e);
        }

        if (redis is null || string.IsNullOrWhiteSpace(redis.Configuration))
        {
            return;
        }

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

        services.AddRedisPushBroker(options => configuration.GetSection(RedisPushOptions.SectionName).Bind(options));
        services.AddHostedService<FollowBrokerAtStart>();
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
