using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Hosting;
using RpcCompare.Bindings.Limits;

namespace Microsoft.Extensions.DependencyInjection;

public static class EmbeddedBindingServiceCollectionExtensions
{
    /// <summary>
    /// Registers a binding server with its options (bound to <paramref name="sectionName"/> when a
    /// configuration is given, then <paramref name="configure"/>), started and stopped with the host.
    /// </summary>
    public static IServiceCollection AddEmbeddedBinding<TServer, TOptions>(this IServiceCollection services, string sectionName, IConfiguration? configuration, Action<TOptions>? configure)
        where TServer : EmbeddedBindingServer
        where TOptions : class
    {
        ArgumentNullException.ThrowIfNull(services);
        var options = services.AddOptions<TOptions>();
        if (configuration is not null)
        {
            options.Bind(configuration.GetSection(sectionName));
        }

        if (configure is not null)
        {
            options.Configure(configure);
        }

        // Refusals are summarised per binding (ConnectionIncidents), not logged once per connection.
        KestrelLimits.QuietPerConnectionWarnings(services);
        services.TryAddSingleton<TServer>();
        services.AddSingleton<IHostedService>(static sp => sp.GetRequiredService<TServer>());
        services.AddSingleton<IBindingServer>(static sp => sp.GetRequiredService<TServer>());
        return services;
    }
}
