using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Pipes;
using RpcCompare.Bindings.Pipes.Server;

namespace Microsoft.Extensions.DependencyInjection;

public static class PipesServiceCollectionExtensions
{
    /// <summary>
    /// Serves RpcCompare's three contracts over the raw pipe baseline. The contracts must be
    /// registered (AddRpcService); unlike the framework bindings this one is written per contract.
    /// </summary>
    public static IServiceCollection AddPipesBinding(this IServiceCollection services, IConfiguration? configuration = null, Action<PipesBindingOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        var options = services.AddOptions<PipesBindingOptions>();
        if (configuration is not null)
        {
            options.Bind(configuration.GetSection(PipesBindingOptions.SectionName));
        }

        if (configure is not null)
        {
            options.Configure(configure);
        }

        services.TryAddSingleton<PipeDispatcher>();
        services.TryAddSingleton<PipeServer>();
        services.AddSingleton<IHostedService>(static sp => sp.GetRequiredService<PipeServer>());
        services.AddSingleton<IBindingServer>(static sp => sp.GetRequiredService<PipeServer>());
        return services;
    }
}
