using System.Collections.ObjectModel;
using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Description;
using CoreWCF.Dispatcher;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>
/// A service behavior that runs <see cref="BeforeInvoke"/> on every operation's own flow just before
/// it runs, so what it sets there (an AsyncLocal) reaches the operation and what it throws goes to the
/// error handlers. A call-context initializer rather than a wrapped invoker: WCF sets each
/// operation's invoker in an operation behavior that runs after service behaviors, while
/// initializers are only ever added to.
/// </summary>
internal abstract class CallContextBehavior : IServiceBehavior, ICallContextInitializer
{
    public void AddBindingParameters(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase, Collection<ServiceEndpoint> endpoints, BindingParameterCollection bindingParameters)
    {
    }

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

    public abstract object? BeforeInvoke(InstanceContext instanceContext, IClientChannel channel, Message message);

    public void AfterInvoke(object? correlationState)
    {
    }
}
