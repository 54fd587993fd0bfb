using Microsoft.Extensions.Configuration;
using RpcCompare.Service;

namespace Microsoft.Extensions.DependencyInjection;

public static class RpcCompareServiceCollectionExtensions
{
    /// <summary>
    /// Registers RpcCompare's own service: its data root and its four contracts (or those
    /// <paramref name="services"/> names, <see cref="ProductServices.Parse"/>), each with the
    /// one-line registration any WCF-style contract uses.
    /// </summary>
    public static IServiceCollection AddRpcCompareServices(this IServiceCollection services, IConfiguration? configuration = null, Action<DataRootOptions>? configure = null, IEnumerable<string>? only = null)
    {
        services.AddDataRoot(configuration, configure);
        foreach (var name in only ?? ProductServices.All.Keys)
        {
            var (contract, implementation) = ProductServices.All[name];
            services.AddRpcService(contract, implementation);
        }

        return services;
    }
}
