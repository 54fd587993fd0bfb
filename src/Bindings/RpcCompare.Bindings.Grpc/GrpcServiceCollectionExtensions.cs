using Microsoft.Extensions.Configuration;
using RpcCompare.Bindings.Grpc.Tcp;
using RpcCompare.Bindings.Grpc.Uds;

namespace Microsoft.Extensions.DependencyInjection;

public static class GrpcServiceCollectionExtensions
{
    /// <summary>Serves every contract registered with AddRpcService over gRPC on 127.0.0.1 (grpc-tcp).</summary>
    public static IServiceCollection AddGrpcTcpBinding(this IServiceCollection services, IConfiguration? configuration = null, Action<GrpcTcpBindingOptions>? configure = null) =>
        services.AddEmbeddedBinding<GrpcTcpServer, GrpcTcpBindingOptions>(GrpcTcpBindingOptions.SectionName, configuration, configure);

    /// <summary>Serves every contract registered with AddRpcService over gRPC on a Unix socket (grpc-uds).</summary>
    public static IServiceCollection AddGrpcUdsBinding(this IServiceCollection services, IConfiguration? configuration = null, Action<GrpcUdsBindingOptions>? configure = null) =>
        services.AddEmbeddedBinding<GrpcUdsServer, GrpcUdsBindingOptions>(GrpcUdsBindingOptions.SectionName, configuration, configure);
}
