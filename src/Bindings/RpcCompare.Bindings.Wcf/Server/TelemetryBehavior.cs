using System.Collections.ObjectModel;
using CoreWCF;
using CoreWCF.Channels;
using CoreWCF.Description;
using CoreWCF.Dispatcher;
using RpcCompare.Bindings.Telemetry;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>
/// A call's server span and duration (<see cref="RpcServerTelemetry"/>) on a WCF binding: each
/// operation's invoker is wrapped, so the span covers the service's call and sees the exception it
/// ends with (CoreWCF hands that to the error handlers only after a call-context initializer's
/// AfterInvoke, on another flow). The invoker is WCF's to set in an operation behavior applied after
/// the service behaviors, so this service behavior appends one of its own to every operation, which
/// CoreWCF applies after the one that sets the invoker. While nothing listens a call costs a check.
/// The span continues the caller's trace when the request carries it (<see cref="WcfTraceHeaders"/>).
/// </summary>
internal sealed class TelemetryBehavior(string binding) : IServiceBehavior
{
    public void AddBindingParameters(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase, Collection<ServiceEndpoint> endpoints, BindingParameterCollection bindingParameters)
    {
    }

    public void ApplyDispatchBehavior(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase)
    {
        ArgumentNullException.ThrowIfNull(serviceDescription);
        foreach (var endpoint in serviceDescription.Endpoints)
        {
            foreach (var operation in endpoint.Contract.Operations)
            {
                if (!operation.OperationBehaviors.Contains(typeof(InvokerWrapper)))
                {
                    operation.OperationBehaviors.Add(new InvokerWrapper(new ServedMethod(binding, RpcSystems.Wcf, endpoint.Contract.Name, operation.Name)));
                }
            }
        }
    }

    public void Validate(ServiceDescription serviceDescription, ServiceHostBase serviceHostBase)
    {
    }

    private sealed class InvokerWrapper(ServedMethod method) : IOperationBehavior
    {
        public void AddBindingParameters(OperationDescription operationDescription, BindingParameterCollection bindingParameters)
        {
        }

        public void ApplyClientBehavior(OperationDescription operationDescription, ClientOperation clientOperation)
        {
        }

        public void ApplyDispatchBehavior(OperationDescription operationDescription, DispatchOperation dispatchOperation)
        {
            ArgumentNullException.ThrowIfNull(dispatchOperation);
            dispatchOperation.Invoker = new TracedInvoker(dispatchOperation.Invoker, method);
        }

        public void Validate(OperationDescription operationDescription)
        {
        }
    }

    private sealed class TracedInvoker(IOperationInvoker inner, ServedMethod method) : IOperationInvoker
    {
        public object[] AllocateInputs() => inner.AllocateInputs();

        public ValueTask<(object returnValue, object[] outputs)> InvokeAsync(object instance, object[] inputs) =>
            RpcServerTelemetry.IsEnabled ? TracedAsync(instance, inputs) : inner.InvokeAsync(instance, inputs);

        private async ValueTask<(object returnValue, object[] outputs)> TracedAsync(object instance, object[] inputs)
        {
            var (traceParent, traceState) = IncomingTraceContext.Read(OperationContext.Current?.IncomingMessageHeaders);
            var telemetry = RpcServerTelemetry.Start(method, traceParent, traceState);
            try
            {
                var result = await inner.InvokeAsync(instance, inputs).ConfigureAwait(false);
                telemetry.End();
                return result;
            }
            catch (Exception e)
            {
                telemetry.End(e);
                throw;
            }
        }
    }
}
