using System.Collections.ObjectModel;
using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Description;
using CoreWCF.Dispatcher;
using Microsoft.Extensions.Logging;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>
/// Sends a refusal the service threw (<see cref="RpcServiceException"/>) as the typed
/// FaultException&lt;RpcFault&gt; every operation declares with [FaultContract], so a WCF client
/// of any kind gets the code and message; a System.ServiceModel FaultException&lt;T&gt; the
/// contract declares goes out as that typed fault (<see cref="DeclaredFaults"/>); other
/// exceptions keep CoreWCF's default handling (a fault saying the server failed), and are logged
/// once each with the binding and the operation: CoreWCF itself logs nothing about them.
/// </summary>
internal sealed partial class RpcFaultBehavior(DeclaredFaults declared, string binding, ILogger logger) : IServiceBehavior, IErrorHandler
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

    // A refusal, a declared fault or an unreadable request is an answer, not a server error.
    public bool HandleError(Exception error) => error is RpcServiceException || declared.IsDeclared(error) || IsUnreadableRequest(error);

    public void ProvideFault(Exception error, MessageVersion version, ref Message fault)
    {
        if (declared.ToCoreWcf(error) is { } typed)
        {
            fault = Message.CreateMessage(version, typed.CreateMessageFault(), typed.Action);
            return;
        }

        // A body CoreWCF could not read into the operation's parameters (an element in another
        // namespace, text where a number goes) is the caller's mistake: said so, not "internal error".
        var refusal = error as RpcServiceException
            ?? (IsUnreadableRequest(error) ? new RpcServiceException(RpcErrorCode.InvalidArgument, $"The request could not be read: {error.Message}") : null);
        if (refusal is null)
        {
            // A fault CoreWCF made itself (an unknown action) already tells the client what is
            // wrong; anything else is the server's own failure.
            if (error is not FaultException)
            {
                Failed(logger, error, binding, OperationContext.Current?.IncomingMessageHeaders?.Action ?? "(no action)");
            }

            return;
        }

        fault = FaultMessage(version, refusal);
    }

    /// <summary>The typed fault every operation declares ([FaultContract(typeof(RpcFault))]), carrying a refusal's code and message.</summary>
    public static Message FaultMessage(MessageVersion version, RpcServiceException refusal)
    {
        ArgumentNullException.ThrowIfNull(refusal);
        var detail = new RpcFault { Code = refusal.Code, Message = refusal.Message };
        var exception = new FaultException<RpcFault>(detail, new FaultReason(refusal.Message), new FaultCode(refusal.Code.ToString()), ServiceNames.FaultAction);
        return Message.CreateMessage(version, exception.CreateMessageFault(), ServiceNames.FaultAction);
    }

    private static bool IsUnreadableRequest(Exception error) =>
        error is System.Runtime.Serialization.SerializationException or System.Xml.XmlException
        || (error is CommunicationException && error is not FaultException && error.InnerException is System.Runtime.Serialization.SerializationException or System.Xml.XmlException);

    [LoggerMessage(1, LogLevel.Error, "Binding {Binding}: {Action} failed; the client was told the server could not process it")]
    private static partial void Failed(ILogger logger, Exception exception, string binding, string action);
}
