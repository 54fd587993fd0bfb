using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Configuration;
using CoreWCF.Description;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>The CoreWCF set-up the three WCF bindings share: services, instancing, faults, one endpoint per contract.</summary>
internal static class WcfServiceModel
{
    public static void AddServices(IServiceCollection services, IEnumerable<RpcServiceDescriptor> served, WcfBindingOptions options)
    {
        services.AddServiceModelServices();
        foreach (var implementation in served.Select(s => s.Implementation).Distinct())
        {
            // By default one instance (the host's, from DI) answering calls concurrently, as CoreWCF's
            // documentation recommends for throughput. CoreWCF's defaults, PerSession and
            // ConcurrencyMode.Single, serialize the calls of each NetTcp/UDS session; the options
            // can ask for them so the runner can show what the choice is worth.
            // Keyed by service type: CoreWCF stores the singleton on this attribute, so it must not be shared.
            // AddressFilterMode.Any: a client that reaches the service through a published container
            // port or a proxy addresses it (the To header) by a port the service does not listen on.
            services.AddKeyedSingleton<IServiceBehavior>(implementation, new ServiceBehaviorAttribute
            {
                InstanceContextMode = options.InstanceContextMode,
                ConcurrencyMode = options.ConcurrencyMode,
                AddressFilterMode = AddressFilterMode.Any,
                // The WSDL's binding and service sections live in the contracts' namespace rather than tempuri.org.
                Namespace = ServiceNames.Namespace,
            });
        }

        services.AddSingleton<IServiceBehavior, RpcFaultBehavior>();
    }

    /// <summary>Adds every contract's service and its endpoint at <paramref name="addressOf"/>.</summary>
    public static void AddEndpoints(IServiceBuilder builder, IEnumerable<RpcServiceDescriptor> served, Binding binding, Func<Type, Uri> addressOf)
    {
        foreach (var implementation in served.Select(s => s.Implementation).Distinct())
        {
            builder.AddService(implementation);
        }

        foreach (var service in served)
        {
            var address = addressOf(service.Contract);
            builder.AddServiceEndpoint(service.Implementation, service.Contract, binding, address, address);
        }
    }

    /// <summary>Every quota a 10 MB message meets, raised to <paramref name="maxMessageSize"/>.</summary>
    public static void RaiseQuotas(System.Xml.XmlDictionaryReaderQuotas quotas, int maxMessageSize)
    {
        quotas.MaxArrayLength = maxMessageSize;
        quotas.MaxStringContentLength = maxMessageSize;
        quotas.MaxBytesPerRead = Math.Max(quotas.MaxBytesPerRead, 64 * 1024);
    }
}
