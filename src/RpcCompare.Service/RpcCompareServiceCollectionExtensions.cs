using Microsoft.Extensions.Configuration;
using RpcCompare.Contracts;
using RpcCompare.Service;

namespace Microsoft.Extensions.DependencyInjection;

public static class RpcCompareServiceCollectionExtensions
{
    /// <summary>
    /// Registers RpcCompare's own service: its data root and its three contracts, each with the
    /// one-line registration any WCF-style contract uses.
    /// </summary>
    public static IServiceCollection AddRpcCompareServices(this IServiceCollection services, IConfiguration? configuration = null, Action<DataRootOptions>? configure = null)
    {
        services.AddDataRoot(configuration, configure);
        services.AddRpcService<IFileService, FileService>();
        services.AddRpcService<ICallShapeService, CallShapeService>();
        services.AddRpcService<IPayloadService, PayloadService>();
        return services;
    }
}
