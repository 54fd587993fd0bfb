using Microsoft.Extensions.DependencyInjection.Extensions;
using RpcCompare.Push;

namespace Microsoft.Extensions.DependencyInjection;

public static class PushServiceCollectionExtensions
{
    /// <summary>
    /// Adds the host's one <see cref="TopicRegistry"/>. Every push binding the host runs serves it
    /// (gRPC streaming, WCF duplex, HTTP long polling, raw pipes); without it they serve no push endpoint.
    /// </summary>
    public static IServiceCollection AddPushServices(this IServiceCollection services, Action<PushOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddOptions<PushOptions>();
        if (configure is not null)
        {
            services.Configure(configure);
        }

        services.TryAddSingleton<TopicRegistry>();
        return services;
    }
}
