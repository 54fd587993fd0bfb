using Microsoft.Extensions.DependencyInjection.Extensions;
using RpcCompare.Push;
using RpcCompare.Push.Redis;

namespace Microsoft.Extensions.DependencyInjection;

public static class RedisPushServiceCollectionExtensions
{
    /// <summary>
    /// Shares the host's topics with every other host on the same Redis (<see cref="RedisPushBroker"/>):
    /// a publication on any of them reaches the subscribers of all.
    /// </summary>
    public static IServiceCollection AddRedisPushBroker(this IServiceCollection services, Action<RedisPushOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddOptions<RedisPushOptions>().Configure(configure);
        services.TryAddSingleton<IPushBroker, RedisPushBroker>();
        return services;
    }
}
