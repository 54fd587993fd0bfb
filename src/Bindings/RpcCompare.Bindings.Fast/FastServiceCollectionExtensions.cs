using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Fast;
using RpcCompare.Bindings.Fast.Server;

namespace Microsoft.Extensions.DependencyInjection;

public static class FastServiceCollectionExtensions
{
    /// <summary>Serves every registered contract (AddRpcService) over fast-uds, RpcCompare's own binding.</summary>
    public static IServiceCollection AddFastUdsBinding(this IServiceCollection services, IConfiguration? configuration = null, Action<FastUdsBindingOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        var options = services.AddOptions<FastUdsBindingOptions>();
        if (configuration is not null)
        {
            options.Bind(configuration.GetSection(FastUdsBindingOptions.SectionName));
        }

        if (configure is not null)
        {
            options.Configure(configure);
        }

        services.TryAddSingleton<FastServer>();
        services.AddSingleton<IHostedService>(static sp => sp.GetRequiredService<FastServer>());
        services.AddSingleton<IBindingServer>(static sp => sp.GetRequiredService<FastServer>());
        return services;
    }
}
