using Microsoft.Extensions.DependencyInjection.Extensions;
using RpcCompare.Bindings;
using RpcCompare.Bindings.ContractAssemblies;
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
        where TImplementation : class, TContract => services.AddRpcService(typeof(TContract), typeof(TImplementation));

    /// <summary>
    /// <see cref="AddRpcService{TContract, TImplementation}"/> for types known only at run time (a
    /// host told which of its contracts to serve, or an assembly loaded by name).
    /// </summary>
    public static IServiceCollection AddRpcService(this IServiceCollection services, Type contract, Type implementation)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(contract);
        ArgumentNullException.ThrowIfNull(implementation);
        if (!contract.IsInterface)
        {
            throw new ArgumentException($"{contract} is not an interface; a service contract must be one.", nameof(contract));
        }

        if (!contract.IsAssignableFrom(implementation) || implementation.IsAbstract || implementation.IsInterface)
        {
            throw new ArgumentException($"{implementation} is not a class implementing {contract}.", nameof(implementation));
        }

        // Read by WCF's rules now, so a contract no binding could describe stops the host at
        // registration with WCF's reason rather than at its first call.
        ContractLoader.Load(contract);
        services.TryAddSingleton(implementation);
        services.TryAddSingleton(contract, sp => sp.GetRequiredService(implementation));
        var alreadyServed = services.Any(d => d.ImplementationInstance is RpcServiceDescriptor served && served.Contract == contract);
        if (!alreadyServed)
        {
            services.AddSingleton(new RpcServiceDescriptor(contract, implementation));
        }

        return services;
    }

    /// <summary>
    /// Serves every contract of a team's assembly (<see cref="ContractAssembly.Load"/>) with the
    /// class beside it that implements it, as <see cref="AddRpcService(IServiceCollection, Type, Type)"/> does.
    /// </summary>
    public static IServiceCollection AddRpcServices(this IServiceCollection services, ContractAssembly assembly)
    {
        ArgumentNullException.ThrowIfNull(assembly);
        foreach (var service in assembly.Services)
        {
            services.AddRpcService(service.Contract, service.Implementation);
        }

        return services;
    }
}
