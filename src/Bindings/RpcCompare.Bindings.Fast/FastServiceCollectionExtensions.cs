using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Fast;
using RpcCompare.Bindings.Fast.Server;
using RpcCompare.Bindings.Security;

namespace Microsoft.Extensions.DependencyInjection;

public static class FastServiceCollectionExtensions
{
    /// <summary>Serves every registered contract (AddRpcService) over fast-uds, RpcCompare's own binding, on a Unix socket.</summary>
    public static IServiceCollection AddFastUdsBinding(this IServiceCollection services, IConfiguration? configuration = null, Action<FastUdsBindingOptions>? configure = null) =>
        services.AddFastBinding(BindingNames.FastUds, FastUdsBindingOptions.SectionName, configuration, configure,
            static (sp, options) => new FastUdsListener(options, sp.GetService<UnixPeerPolicy>() ?? UnixPeerPolicy.OwnUser));

    /// <summary>
    /// Serves every registered contract over fast-tcp: the same frames on a TCP port, in plaintext
    /// (loopback only unless the host allows plaintext beyond it; refused when the host uses TLS).
    /// </summary>
    public static IServiceCollection AddFastTcpBinding(this IServiceCollection services, IConfiguration? configuration = null, Action<FastTcpBindingOptions>? configure = null) =>
        services.AddFastBinding(BindingNames.FastTcp, FastTcpBindingOptions.SectionName, configuration, configure,
            static (sp, options) => new FastTcpListener(options, sp.GetService<TransportSecurity>() ?? TransportSecurity.Plaintext));

    private static IServiceCollection AddFastBinding<TOptions>(this IServiceCollection services, string binding, string section, IConfiguration? configuration,
        Action<TOptions>? configure, Func<IServiceProvider, TOptions, FastListener> listener)
        where TOptions : FastBindingOptions
    {
        ArgumentNullException.ThrowIfNull(services);
        var options = services.AddOptions<TOptions>();
        if (configuration is not null)
        {
            options.Bind(configuration.GetSection(section));
        }

        if (configure is not null)
        {
            options.Configure(configure);
        }

        // Keyed by binding: a host serves fast-uds and fast-tcp side by side, each with a server of its own.
        services.AddKeyedSingleton(binding, (sp, _) =>
            new FastServer(sp, listener(sp, sp.GetRequiredService<IOptions<TOptions>>().Value), sp.GetRequiredService<ILogger<FastServer>>()));
        services.AddSingleton<IHostedService>(sp => sp.GetRequiredKeyedService<FastServer>(binding));
        services.AddSingleton<IBindingServer>(sp => sp.GetRequiredKeyedService<FastServer>(binding));
        return services;
    }
}
