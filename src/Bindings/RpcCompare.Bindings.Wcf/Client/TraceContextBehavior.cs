using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Description;
using System.ServiceModel.Dispatcher;
using RpcCompare.Bindings.Telemetry;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>
/// Adds the caller's trace context to every request a client channel sends within a span
/// (<see cref="WcfTraceHeaders"/>): a message inspector, which the WCF client calls on the calling
/// flow, where the caller's span is <see cref="System.Diagnostics.Activity.Current"/>. A call made
/// outside any span sends nothing more.
/// </summary>
internal sealed class TraceContextBehavior : IEndpointBehavior, IClientMessageInspector
{
    public static TraceContextBehavior Instance { get; } = new();

    public void AddBindingParameters(ServiceEndpoint endpoint, BindingParameterCollection bindingParameters)
    {
    }

    public void ApplyClientBehavior(ServiceEndpoint endpoint, ClientRuntime clientRuntime)
    {
        ArgumentNullException.ThrowIfNull(clientRuntime);
        clientRuntime.ClientMessageInspectors.Add(this);
    }

    public void ApplyDispatchBehavior(ServiceEndpoint endpoint, EndpointDispatcher endpointDispatcher)
    {
    }

    public void Validate(ServiceEndpoint endpoint)
    {
    }

    public object? BeforeSendRequest(ref Message request, IClientChannel channel)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (BinaryTraceContext.Caller is { Id: { } traceParent } caller)
        {
            request.Headers.Add(MessageHeader.CreateHeader(WcfTraceHeaders.TraceParent, WcfTraceHeaders.Namespace, traceParent));
            if (caller.TraceStateString is { Length: > 0 } traceState)
            {
                request.Headers.Add(MessageHeader.CreateHeader(WcfTraceHeaders.TraceState, WcfTraceHeaders.Namespace, traceState));
            }
        }

        return null;
    }

    public void AfterReceiveReply(ref Message reply, object correlationState)
    {
    }
}
