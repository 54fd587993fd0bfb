using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using RpcCompare.Service;

namespace Microsoft.Extensions.DependencyInjection;

public static class DataRootServiceCollectionExtensions
{
    /// <summary>
    /// Registers the <see cref="DataRoot"/> the file operations run in, bound to the
    /// <see cref="DataRootOptions.SectionName"/> configuration section when one is given.
    /// </summary>
    public static IServiceCollection AddDataRoot(this IServiceCollection services, IConfiguration? configuration = null, Action<DataRootOptions>? configure = null)
    {
        // Stryker disable once Statement : AddOptions below throws the same ArgumentNullException for the same parameter
        ArgumentNullException.ThrowIfNull(services);
        var options = services.AddOptions<DataRootOptions>();
        if (configuration is not null)
        {
            options.Bind(configuration.GetSection(DataRootOptions.SectionName));
        }

        if (configure is not null)
        {
            options.Configure(configure);
        }

        services.TryAddSingleton(static sp => DataRoot.Open(sp.GetRequiredService<IOptions<DataRootOptions>>().Value));
        return services;
    }
}
