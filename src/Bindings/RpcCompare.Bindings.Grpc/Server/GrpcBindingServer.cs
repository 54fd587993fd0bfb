using System.Reflection;
using Grpc.Reflection;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Grpc.AspNetCore.Server.Model;
using ProtoBuf.Grpc.Server;
using ServiceModel.Grpc.Configuration;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Grpc.Push;
using RpcCompare.Bindings.Grpc.Schema;
using RpcCompare.Bindings.Hosting;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;
using GoogleServiceDescriptor = Google.Protobuf.Reflection.ServiceDescriptor;

namespace RpcCompare.Bindings.Grpc.Server;

/// <summary>
/// gRPC for .NET on its own Kestrel server, HTTP/2 only, serving every contract the host
/// registered as the contract model maps it (<see cref="Mapping.GrpcContractMap"/>: Grpc.AspNetCore's
/// own method registration, protobuf-net as the serializer), plus server reflection (grpc.reflection.v1 and
/// v1alpha) and grpc.health.v1. Reflection describes the <see cref="ContractSchema"/> files, the
/// same text the project exports as clients/proto, and lists health and itself; health answers
/// for every service reflection lists, and for nothing else.
/// </summary>
internal abstract class GrpcBindingServer : KestrelBindingServer
{
    // MapGrpcService<T>(IEndpointRouteBuilder), called for implementation types known only at run time.
    private static readonly MethodInfo s_mapGrpcService = typeof(GrpcEndpointRouteBuilderExtensions).GetMethods()
        .Single(m => m.Name == nameof(GrpcEndpointRouteBuilderExtensions.MapGrpcService) && m.IsGenericMethodDefinition && m.GetParameters().Length == 1);
    private readonly GrpcBindingOptions _options;
    private IReadOnlyList<GoogleServiceDescriptor>? _served;

    protected GrpcBindingServer(IServiceProvider hostServices, GrpcBindingOptions options)
        : base(hostServices)
    {
        _options = options;
    }

    protected override CarryRules Carries => GrpcCarryRules.For(_options.Engine);

    /// <summary>Every gRPC service served, as routed, listed by reflection and answered for by health.</summary>
    public IReadOnlyList<string> ServiceNames => [.. ServedServices().Select(s => s.FullName)];

    /// <summary>The contracts served: those the host registered, and push when the host has a topic registry.</summary>
    private IEnumerable<Type> Contracts =>
        Services.Select(s => s.Contract).Concat(HostServices.GetService<TopicRegistry>() is null ? [] : [typeof(IPushService)]).Distinct();

    /// <summary>
    /// The contracts' services from the schema's descriptors, then health and reflection (their
    /// own generated descriptors). Built once: a contract the schema cannot describe fails the
    /// host's start, naming it, instead of a client's first call.
    /// </summary>
    private IReadOnlyList<GoogleServiceDescriptor> ServedServices() => _served ??=
    [
        .. ServedDescriptors.Build(ContractSchema.Generate(Contracts)).SelectMany(f => f.Services),
        global::Grpc.Health.V1.Health.Descriptor,
        global::Grpc.Reflection.V1.ServerReflection.Descriptor,
        global::Grpc.Reflection.V1Alpha.ServerReflection.Descriptor,
    ];

    protected override void ConfigureServices(IServiceCollection services)
    {
        Action<global::Grpc.AspNetCore.Server.GrpcServiceOptions> configure = options =>
        {
            options.MaxReceiveMessageSize = _options.MaxMessageSize;
            options.MaxSendMessageSize = _options.MaxMessageSize;
            // No response compression (grpc-dotnet's default, stated): payloads are measured as sent.
            options.ResponseCompressionLevel = null;
            // Resolved from the container below: one instance for the binding, not one per call.
            options.Interceptors.Add<RpcErrorServerInterceptor>();
            options.Interceptors.Add<CallerIdentityServerInterceptor>();
        };
        services.AddSingleton(new RpcErrorServerInterceptor(Name));
        switch (_options.Engine)
        {
            case GrpcEngine.ProtobufNetGrpc:
                // protobuf-net.Grpc binds each mapped implementation's [ServiceContract] interfaces itself.
                services.AddCodeFirstGrpc(configure);
                break;
            case GrpcEngine.ServiceModelGrpc:
                services.AddGrpc(configure);
                services.AddServiceModelGrpc(options => options.DefaultMarshallerFactory = new ProtobufMarshallerFactory());
                break;
            default:
                services.AddGrpc(configure);
                break;
        }

        // The standard reflection services (Grpc.Reflection), given the schema's descriptors:
        // current tools ask for v1 first, older ones for v1alpha.
        var served = ServedServices();
        services.AddSingleton(new ReflectionServiceImpl(served));
        services.AddSingleton(new ReflectionV1ServiceImpl(served));
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
            services.AddSingleton<IPushService>(provider => provider.GetRequiredService<GrpcPushService>());
        }

        // Each contract is a service of its own type whose methods come from the contract's map.
        foreach (var contract in _options.Engine == GrpcEngine.ContractModel ? Contracts : [])
        {
            var endpoint = typeof(ContractEndpoint<>).MakeGenericType(contract);
            services.AddSingleton(endpoint, provider => Activator.CreateInstance(endpoint, provider.GetRequiredService(contract))!);
            services.AddSingleton(typeof(IServiceMethodProvider<>).MakeGenericType(endpoint), typeof(ContractMethodProvider<>).MakeGenericType(contract));
        }
    }

    protected override void Configure(WebApplication application)
    {
        // A caller the host does not serve (ConnectionCaller) is answered PermissionDenied before its
        // request is read or routed, and its connection asked to close (GOAWAY) once that is out.
        application.Use((context, next) =>
        {
            if (ConnectionCaller.RefusalOf(context.Features) is not { } refusal)
            {
                return next(context);
            }

            context.Features.Get<IConnectionLifetimeNotificationFeature>()?.RequestClose();
            GrpcErrors.WriteTrailersOnly(context.Response, new RpcServiceException(RpcErrorCode.PermissionDenied, refusal));
            return Task.CompletedTask;
        });

        // The comparison engines bind each implementation's [ServiceContract] interfaces themselves.
        var serviceTypes = _options.Engine != GrpcEngine.ContractModel
            ? Services.Select(s => s.Implementation).Concat(application.Services.GetService<GrpcPushService>() is null ? [] : [typeof(GrpcPushService)]).Distinct()
            : Contracts.Select(contract => typeof(ContractEndpoint<>).MakeGenericType(contract));
        foreach (var serviceType in serviceTypes)
        {
            s_mapGrpcService.MakeGenericMethod(serviceType).Invoke(null, [application]);
        }

        application.MapGrpcService<ReflectionServiceImpl>();
        application.MapGrpcService<ReflectionV1ServiceImpl>();
        application.MapGrpcHealthChecksService();
    }

    /// <summary>
    /// HTTP/2 only (gRPC needs nothing else, and prior knowledge skips the HTTP/1.1 upgrade dance),
    /// with the handshake timeout on the connection preface, which Kestrel leaves to the idle timeout;
    /// <paramref name="refuse"/> says why a caller is not served (its calls are answered PermissionDenied).
    /// </summary>
    protected void ConfigureListener(ListenOptions listen, bool tls = false, Func<CallerIdentity, string?>? refuse = null)
    {
        ArgumentNullException.ThrowIfNull(listen);
        listen.Protocols = HttpProtocols.Http2;
        if (tls)
        {
            // Before the preface deadline, which must see the decrypted bytes.
            Security.UseTls(listen, _options.HandshakeTimeout);
        }

        // After TLS: the caller's certificate is known once the handshake is done.
        ConnectionCaller.AddTo(listen, Name, refuse);
        PrefaceTimeout.AddTo(listen, PrefaceTimeout.Http2PrefaceLength, _options.HandshakeTimeout, Incidents);
    }

    protected override (FrameworkConnectionOptions Options, string Section) Connections => (_options, SectionName);

    /// <summary>The binding's configuration section, for messages.</summary>
    protected abstract string SectionName { get; }

    protected override void ConfigureKestrel(KestrelServerOptions options)
    {
        options.Limits.Http2.MaxStreamsPerConnection = _options.MaxStreamsPerConnection;
        Listen(options);
    }

    /// <summary>Adds the binding's one listener.</summary>
    protected abstract void Listen(KestrelServerOptions options);
}
