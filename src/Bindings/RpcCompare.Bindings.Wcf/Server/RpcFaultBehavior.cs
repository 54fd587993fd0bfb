using System.Collections.ObjectModel;
using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Description;
using CoreWCF.Dispatcher;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>
/// Sends a refusal the service threw (<see cref="RpcServiceException"/>) as the typed
/// FaultException&lt;RpcFault&gt; every operation declares with [FaultContract], so a WCF client
/// of any kind gets the code and message; a System.ServiceModel FaultException&lt;T&gt; the
/// contract declares goes out as that typed fault (<see cref="DeclaredFaults"/>); other
/// exceptions keep CoreWCF's default handling.
/// </summary>
internal sealed class RpcFaultBehavior(DeclaredFaults declared) : IServiceBehavior, IErrorHandler
{
    public void AddBindingParameters(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase, Collection<ServiceEndpoint> endpoints, BindingParameterCollection bindingParameters)
    {
    }

    public void ApplyDispatchBehavior(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase)
    {
        foreach (var dispatcher in serviceHostBase.ChannelDispatchers.OfType<ChannelDispatcher>())
        {
            dispatcher.ErrorHandlers.Add(this);
        }
    }

    public void Validate(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase)
    {
    }

    // A refusal or a declared fault is an answer, not a server error: nothing to log.
    public bool HandleError(Exception error) => error is RpcServiceException || declared.IsDeclared(error);

    public void ProvideFault(Exception error, MessageVersion version, ref Message fault)
    {
        if (declared.ToCoreWcf(error) is { } typed)
        {
            fault = Message.CreateMessage(version, typed.CreateMessageFault(), typed.Action);
            return;
        }

        if (error is not RpcServiceException refusal)
        {
            return;
        }

        var detail = new RpcFault { Code = refusal.Code, Message = refusal.Message };
        var exception = new FaultException<RpcFault>(detail, new FaultReason(refusal.Message), new FaultCode(refusal.Code.ToString()), ServiceNames.FaultAction);
        fault = Message.CreateMessage(version, exception.CreateMessageFault(), ServiceNames.FaultAction);
    }
}
