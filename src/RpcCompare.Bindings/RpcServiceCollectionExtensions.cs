using Microsoft.Extensions.DependencyInjection.Extensions;
using RpcCompare.Bindings;
using RpcCompare.Description;

namespace Microsoft.Extensions.DependencyInjection;

public static class RpcServiceCollectionExtensions
{
    /// <summary>
    /// Serves <typeparamref name="TContract"/> with <typeparamref name="TImplementation"/> on every
    /// generic binding the host runs. The implementation is one singleton shared by all bindings,
    /// so they answer from the same state; it takes its dependencies from the container.
    /// Throws <see cref="ContractLoadException"/> for a contract WCF's rules refuse.
    /// </summary>
    public static IServiceCollection AddRpcService<TContract, TImplementation>(this IServiceCollection services)
        where TContract : class
        where TImplementation : class, TContract
    {
        ArgumentNullException.ThrowIfNull(services);
        if (!typeof(TContract).IsInterface)
        {
            throw new ArgumentException($"{typeof(TContract)} is not an interface; a service contract must be one.", nameof(TContract));
        }

        // Read by WCF's rules now, so a contract no binding could describe stops the host at
        // registration with WCF's reason rather than at its first call.
        ContractLoader.Load(typeof(TContract));
        services.TryAddSingleton<TImplementation>();
        services.TryAddSingleton<TContract>(static sp => sp.GetRequiredService<TImplementation>());
        var alreadyServed = services.Any(static d => d.ImplementationInstance is RpcServiceDescriptor served && served.Contract == typeof(TContract));
        if (!alreadyServed)
        {
            services.AddSingleton(new RpcServiceDescriptor(typeof(TContract), typeof(TImplementation)));
        }

        return services;
    }
}
