using System.Collections.ObjectModel;
using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Description;
using CoreWCF.Dispatcher;
using CoreWCF.IdentityModel.Claims;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>
/// NetTcp's TLS is WCF's own (an SSL upgrade inside its framing), so the connection's middleware
/// (<see cref="ConnectionCaller"/>) never sees the client's certificate: before each operation,
/// WCF's call-context hook adds it to <see cref="CallerIdentity.Current"/> from the security
/// context. Applied only where client certificates are asked for, so the plaintext and TLS paths
/// pay nothing per call.
/// </summary>
internal sealed class CallerCertificateBehavior : IServiceBehavior, ICallContextInitializer
{
    public void AddBindingParameters(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase, Collection<ServiceEndpoint> endpoints, BindingParameterCollection bindingParameters)
    {
    }

    // A call-context initializer rather than a wrapped invoker: WCF sets each operation's invoker in
    // an operation behavior that runs after this one, while initializers are only ever added to.
    public void ApplyDispatchBehavior(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase)
    {
        ArgumentNullException.ThrowIfNull(serviceHostBase);
        foreach (var operation in serviceHostBase.ChannelDispatchers.OfType<ChannelDispatcher>()
            .SelectMany(d => d.Endpoints).SelectMany(e => e.DispatchRuntime.Operations))
        {
            operation.CallContextInitializers.Add(this);
        }
    }

    public void Validate(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase)
    {
    }

    // Called on the operation's own flow just before it runs: the value set here reaches it.
    public object? BeforeInvoke(InstanceContext instanceContext, IClientChannel channel, Message message)
    {
        var certificate = ServiceSecurityContext.Current?.AuthorizationContext.ClaimSets.OfType<X509CertificateClaimSet>().FirstOrDefault()?.X509Certificate;
        if (CallerIdentity.Current is { } caller)
        {
            CallerIdentity.Current = caller.WithCertificate(certificate);
        }

        return null;
    }

    public void AfterInvoke(object? correlationState)
    {
    }
}
