using Microsoft.Extensions.DependencyInjection.Extensions;
using RpcCompare.Push;
using RpcCompare.Push.Nats;

namespace Microsoft.Extensions.DependencyInjection;

public static class NatsPushServiceCollectionExtensions
{
    /// <summary>
    /// Shares the host's topics with every other host on the same NATS server (<see cref="NatsPushBroker"/>):
    /// a publication on any of them reaches the subscribers of all.
    /// </summary>
    public static IServiceCollection AddNatsPushBroker(this IServiceCollection services, Action<NatsPushOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddOptions<NatsPushOptions>().Configure(configure);
        services.TryAddSingleton<IPushBroker, NatsPushBroker>();
        return services;
    }
}
