using System.ServiceModel;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Wcf;

/// <summary>
/// What the CoreWCF bindings carry: what CoreWCF serves. Contracts WCF's loader accepts but
/// CoreWCF refuses on the service side are refused here first, naming the binding, instead of
/// failing somewhere inside CoreWCF's start-up.
/// </summary>
internal sealed class WcfCarryRules : CarryRules
{
    private readonly bool _basicHttp;

    private WcfCarryRules(bool basicHttp)
    {
        _basicHttp = basicHttp;
    }

    /// <summary>NetTcp and Unix domain sockets: sessionful and duplex.</summary>
    public static WcfCarryRules Sessionful { get; } = new(basicHttp: false);

    /// <summary>BasicHttpBinding: one request, one reply; no sessions, no callbacks.</summary>
    public static WcfCarryRules BasicHttp { get; } = new(basicHttp: true);

    protected override IEnumerable<string> RefuseContract(ServiceContractDescription contract)
    {
        if (_basicHttp && contract.CallbackContractType is { } callback)
        {
            yield return $"BasicHttpBinding has no callback channel (CallbackContract {callback.Name})";
        }

        if (_basicHttp && contract.SessionMode == SessionMode.Required)
        {
            yield return "BasicHttpBinding has no sessions (SessionMode.Required)";
        }
    }

    protected override IEnumerable<string> RefuseOperation(ServiceContractDescription contract, OperationDescription operation)
    {
        // CoreWCF's TaskOperationDescriptionValidator: a service contract may declare an operation
        // synchronously or Task-based, not both (the WCF client accepts both).
        if (operation is { SyncMethod: { } sync, TaskMethod: { } task })
        {
            yield return $"CoreWCF serves an operation declared both synchronously ({sync.Name}) and Task-based ({task.Name}) only on the client side; keep one form in the service's contract";
        }

        if (operation.ValueTaskMethod is { } valueTask)
        {
            yield return $"CoreWCF does not recognise ValueTask ({valueTask.Name}); declare it as Task";
        }

        // CoreWCF's OperationInvokerBehavior throws PlatformNotSupportedException for an operation
        // whose service side has only BeginX/EndX (the asynchronous programming model).
        if (operation is { BeginMethod: { } begin, SyncMethod: null, TaskMethod: null })
        {
            yield return $"CoreWCF's service side does not dispatch the Begin/End form ({begin.Name}); declare the operation Task-based";
        }
    }
}
