using CoreWCF;
using RpcCompare.Bindings.Limits;
using CoreWCF.Channels;
using CoreWCF.Configuration;
using CoreWCF.Description;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings.Wcf.Push;
using RpcCompare.Contracts;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>The CoreWCF set-up the three WCF bindings share: services, instancing, faults, one endpoint per contract.</summary>
internal static class WcfServiceModel
{
    /// <summary>
    /// The endpoints a binding serves: one per contract the host serves and, on a binding that can
    /// call back (<paramref name="duplex"/>) in a host with a topic registry, the push endpoints.
    /// </summary>
    public static IReadOnlyList<WcfEndpoint> EndpointsOf(IEnumerable<RpcServiceDescriptor> served, IServiceProvider hostServices, bool duplex) =>
    [
        .. served.Select(s => new WcfEndpoint(WcfEndpoints.NameOf(s.Contract), s.Contract, s.Implementation, IsStreamed: WcfEndpoints.IsStreamed(s.Contract))),
        .. duplex && hostServices.GetService<TopicRegistry>() is not null ? WcfPushEndpoints.All : [],
    ];

    /// <summary>
    /// CoreWCF's services for <paramref name="endpoints"/>; on a binding whose connections may be
    /// refused (<paramref name="refusesCallers"/>), the behavior answering their calls PermissionDenied.
    /// </summary>
    public static void AddServices(IServiceCollection services, string binding, IReadOnlyList<WcfEndpoint> endpoints, WcfBindingOptions options, IServiceProvider hostServices,
        bool refusesCallers = false)
    {
        services.AddServiceModelServices();
        if (refusesCallers)
        {
            services.AddSingleton<IServiceBehavior, CallerRefusalBehavior>();
        }

        foreach (var implementation in endpoints.Where(e => !e.IsPush).Select(e => e.Implementation).Distinct())
        {
            // By default one instance (the host's, from DI) answering calls concurrently, as CoreWCF's
            // documentation recommends for throughput. CoreWCF's defaults, PerSession and
            // ConcurrencyMode.Single, serialize the calls of each NetTcp/UDS session; the options
            // can ask for them so the runner can show what the choice is worth.
            services.AddKeyedSingleton<IServiceBehavior>(implementation, CreateServiceBehavior(options.InstanceContextMode, options.ConcurrencyMode));
        }

        if (endpoints.Any(e => e.IsPush))
        {
            WcfPushEndpoints.AddServices(services, hostServices.GetRequiredService<TopicRegistry>(), endpoints.Where(e => e.IsPush));
        }

        services.AddSingleton<IServiceBehavior>(new TelemetryBehavior(binding));
        services.AddSingleton<DeclaredFaults>();
        services.AddSingleton<IServiceBehavior>(provider => new RpcFaultBehavior(provider.GetRequiredService<DeclaredFaults>(), binding,
            provider.GetRequiredService<ILoggerFactory>().CreateLogger<RpcFaultBehavior>()));
    }

    /// <summary>
    /// The [ServiceBehavior] of one implementation. Keyed by service type: CoreWCF stores the
    /// singleton on this attribute, so it must not be shared.
    /// </summary>
    public static ServiceBehaviorAttribute CreateServiceBehavior(InstanceContextMode instancing, ConcurrencyMode concurrency) => new()
    {
        InstanceContextMode = instancing,
        ConcurrencyMode = concurrency,
        // A client that reaches the service through a published container port or a proxy
        // addresses it (the To header) by a port the service does not listen on.
        AddressFilterMode = AddressFilterMode.Any,
        // The WSDL's binding and service sections live in the contracts' namespace rather than tempuri.org.
        Namespace = ServiceNames.Namespace,
    };

    /// <summary>Adds every endpoint's service, at <paramref name="addressOf"/>.</summary>
    public static void AddEndpoints(IServiceBuilder builder, IReadOnlyList<WcfEndpoint> endpoints, Func<Binding> createBinding, WcfBindingOptions options, Func<WcfEndpoint, Uri> addressOf)
    {
        foreach (var implementation in endpoints.Select(e => e.Implementation).Distinct())
        {
            builder.AddService(implementation);
        }

        foreach (var endpoint in endpoints)
        {
            var binding = createBinding();
            if (endpoint.IsPush)
            {
                // A subscriber may hear nothing for longer than the 10-minute idle limit, and sends nothing itself.
                binding.ReceiveTimeout = TimeSpan.MaxValue;
            }

            if (endpoint.IsStreamed)
            {
                UseStreamedTransfer(binding, options.MaxStreamSize);
            }

            var address = addressOf(endpoint);
            builder.AddServiceEndpoint(endpoint.Implementation, endpoint.Contract, binding, address, address);
        }
    }

    /// <summary>
    /// WCF's streamed transfer for a contract that moves Streams: the body passes through in
    /// pieces, so a stream of any length keeps memory flat, bounded by <paramref name="maxStreamSize"/>
    /// instead of the buffered message limit. Only such a contract's endpoint is streamed: the
    /// buffered contracts' wire and speed stay as they are.
    /// </summary>
    public static void UseStreamedTransfer(Binding binding, long maxStreamSize)
    {
        switch (binding)
        {
            case NetTcpBinding netTcp:
                netTcp.TransferMode = TransferMode.Streamed;
                netTcp.MaxReceivedMessageSize = maxStreamSize;
                break;
            case UnixDomainSocketBinding uds:
                uds.TransferMode = TransferMode.Streamed;
                uds.MaxReceivedMessageSize = maxStreamSize;
                break;
            case BasicHttpBinding http:
                http.TransferMode = TransferMode.Streamed;
                http.MaxReceivedMessageSize = maxStreamSize;
                break;
            default:
                throw new NotSupportedException($"No streamed transfer for {binding.GetType().Name}.");
        }
    }

    /// <summary>Every quota a 10 MB message meets, raised to <paramref name="maxMessageSize"/>.</summary>
    public static void RaiseQuotas(System.Xml.XmlDictionaryReaderQuotas quotas, int maxMessageSize)
    {
        quotas.MaxArrayLength = maxMessageSize;
        quotas.MaxStringContentLength = maxMessageSize;
        quotas.MaxBytesPerRead = Math.Max(quotas.MaxBytesPerRead, 64 * 1024);
    }

    /// <summary>
    /// The framing transports' timeouts (NetTcp, Unix sockets): the preamble must arrive within the
    /// handshake timeout (CoreWCF's channel initialization timeout), and a connection kept for
    /// another session may sit idle for the idle timeout.
    /// </summary>
    public static void SetFramingTimeouts(CoreWCF.Channels.ConnectionPoolSettings settings, WcfBindingOptions options)
    {
        settings.ChannelInitializationTimeout = options.HandshakeTimeout;
        settings.IdleTimeout = options.IdleTimeout;
    }

    /// <summary>
    /// CoreWCF's framing transports end a connection whose preamble (or next session) does not come
    /// in time by letting an OperationCanceledException escape to Kestrel, which logs an error with a
    /// stack trace per connection: a flood of stalled connections would flood the log. This
    /// middleware, outermost on the listener, counts them as stalled instead and lets them close.
    /// </summary>
    public static void CountTimeouts(Microsoft.AspNetCore.Connections.IConnectionBuilder listen, ConnectionIncidents incidents) =>
        listen.Use(next => async connection =>
        {
            try
            {
                await next(connection);
            }
            catch (OperationCanceledException)
            {
                incidents.Add(ConnectionIncident.Stalled, "CoreWCF framing timeout");
            }
        });
}
