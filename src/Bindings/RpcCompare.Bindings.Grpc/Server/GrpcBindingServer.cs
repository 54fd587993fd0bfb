using System.Reflection;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using ProtoBuf.Grpc.Configuration;
using ProtoBuf.Grpc.Server;
using RpcCompare.Bindings.Grpc.Push;
using RpcCompare.Bindings.Hosting;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Grpc.Server;

/// <summary>
/// gRPC for .NET on its own Kestrel server, HTTP/2 only, serving every contract the host
/// registered code-first (protobuf-net.Grpc), plus server reflection and grpc.health.v1.
/// </summary>
internal abstract class GrpcBindingServer : KestrelBindingServer
{
    // MapGrpcService<T>(IEndpointRouteBuilder), called for implementation types known only at run time.
    private static readonly MethodInfo s_mapGrpcService = typeof(GrpcEndpointRouteBuilderExtensions).GetMethods()
        .Single(m => m.Name == nameof(GrpcEndpointRouteBuilderExtensions.MapGrpcService) && m.IsGenericMethodDefinition && m.GetParameters().Length == 1);
    private readonly GrpcBindingOptions _options;

    protected GrpcBindingServer(IServiceProvider hostServices, GrpcBindingOptions options)
        : base(hostServices)
    {
        _options = options;
    }

    /// <summary>The gRPC service names served, as routed and as reported by reflection and health.</summary>
    public IReadOnlyList<string> ServiceNames => [.. Services.Select(s => ServiceName(s.Contract))];

    protected override void ConfigureServices(IServiceCollection services)
    {
        services.AddCodeFirstGrpc(options =>
        {
            options.MaxReceiveMessageSize = _options.MaxMessageSize;
            options.MaxSendMessageSize = _options.MaxMessageSize;
            // No response compression (grpc-dotnet's default, stated): payloads are measured as sent.
            options.ResponseCompressionLevel = null;
            options.Interceptors.Add<RpcErrorServerInterceptor>();
        });
        services.AddCodeFirstGrpcReflection();
        services.AddGrpcHealthChecks(options =>
            {
                // Checked on each request: cached results are published only after the health
                // publisher's first delay, and until then every service reads UNKNOWN.
                options.UseHealthChecksCache = false;
                foreach (var name in ServiceNames)
                {
                    options.Services.Map(name, static _ => true);
                }
            })
            // A service with no check reads UNKNOWN; this one answers for every mapped service: it
            // runs inside the binding's server, so an answer means the binding is up.
            .AddCheck("binding", static () => HealthCheckResult.Healthy("The binding's server is answering."));
        if (HostServices.GetService<TopicRegistry>() is { } registry)
        {
            services.AddSingleton(registry);
            // The push service resets a dropped subscriber's stream through its HttpContext.
            services.AddHttpContextAccessor();
            services.AddSingleton<GrpcPushService>();
        }
    }

    protected override void Configure(WebApplication application)
    {
        // protobuf-net.Grpc exposes every [ServiceContract] interface a mapped type implements;
        // map each implementation once, whatever contracts it serves.
        foreach (var implementation in Services.Select(s => s.Implementation).Distinct())
        {
            s_mapGrpcService.MakeGenericMethod(implementation).Invoke(null, [application]);
        }

        if (application.Services.GetService<GrpcPushService>() is not null)
        {
            application.MapGrpcService<GrpcPushService>();
        }

        application.MapCodeFirstGrpcReflectionService();
        application.MapGrpcHealthChecksService();
    }

    /// <summary>HTTP/2 only: gRPC needs nothing else, and prior knowledge skips the HTTP/1.1 upgrade dance.</summary>
    protected static void Http2Only(ListenOptions listen) => listen.Protocols = HttpProtocols.Http2;

    protected override void ConfigureKestrel(KestrelServerOptions options)
    {
        options.Limits.Http2.MaxStreamsPerConnection = _options.MaxStreamsPerConnection;
        Listen(options);
    }

    /// <summary>Adds the binding's one listener.</summary>
    protected abstract void Listen(KestrelServerOptions options);

    private static string ServiceName(Type contract) =>
        BinderConfiguration.Default.Binder.IsServiceContract(contract, out var name) && name is not null
            ? name
            : throw new InvalidOperationException($"{contract} is not a service contract protobuf-net.Grpc can serve.");
}
