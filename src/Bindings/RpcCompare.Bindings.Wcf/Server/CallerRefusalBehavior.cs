using System.Collections.ObjectModel;
using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Description;
using CoreWCF.Dispatcher;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>
/// Answers every call of a caller the host does not serve (<see cref="ConnectionCaller.CurrentRefusal"/>,
/// set on the connection's flow) with the typed PermissionDenied fault saying why, before the
/// operation runs. A call-context initializer: WCF runs it on the operation's flow, and an
/// exception thrown there reaches the error handlers (<see cref="RpcFaultBehavior"/>).
/// For the framing bindings (wcf-uds), whose refused peers have no HTTP layer to be answered in
/// (wcf-http answers them before CoreWCF, <see cref="Http.HttpCallerRefusal"/>). Registered only on
/// a binding that can refuse a caller, so the others pay nothing per call.
/// </summary>
internal sealed class CallerRefusalBehavior : IServiceBehavior, ICallContextInitializer
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

    public object? BeforeInvoke(InstanceContext instanceContext, IClientChannel channel, Message message) =>
        ConnectionCaller.CurrentRefusal is { } refusal ? throw new RpcServiceException(RpcErrorCode.PermissionDenied, refusal) : null;

    public void AfterInvoke(object? correlationState)
    {
    }
}
