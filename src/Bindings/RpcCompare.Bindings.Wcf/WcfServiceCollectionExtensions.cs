using Microsoft.Extensions.Configuration;
using RpcCompare.Bindings.Wcf.Http;
using RpcCompare.Bindings.Wcf.NetTcp;
using RpcCompare.Bindings.Wcf.Uds;

namespace Microsoft.Extensions.DependencyInjection;

public static class WcfServiceCollectionExtensions
{
    /// <summary>Serves every contract registered with AddRpcService over CoreWCF NetTcp on 127.0.0.1 (wcf-nettcp).</summary>
    public static IServiceCollection AddWcfNetTcpBinding(this IServiceCollection services, IConfiguration? configuration = null, Action<WcfNetTcpBindingOptions>? configure = null) =>
        services.AddEmbeddedBinding<WcfNetTcpServer, WcfNetTcpBindingOptions>(WcfNetTcpBindingOptions.SectionName, configuration, configure);

    /// <summary>Serves every contract registered with AddRpcService over CoreWCF Unix domain sockets (wcf-uds).</summary>
    public static IServiceCollection AddWcfUdsBinding(this IServiceCollection services, IConfiguration? configuration = null, Action<WcfUdsBindingOptions>? configure = null) =>
        services.AddEmbeddedBinding<WcfUdsServer, WcfUdsBindingOptions>(WcfUdsBindingOptions.SectionName, configuration, configure);

    /// <summary>Serves every contract registered with AddRpcService over CoreWCF BasicHttp with WSDL on 127.0.0.1 (wcf-http).</summary>
    public static IServiceCollection AddWcfHttpBinding(this IServiceCollection services, IConfiguration? configuration = null, Action<WcfHttpBindingOptions>? configure = null) =>
        services.AddEmbeddedBinding<WcfHttpServer, WcfHttpBindingOptions>(WcfHttpBindingOptions.SectionName, configuration, configure);
}
