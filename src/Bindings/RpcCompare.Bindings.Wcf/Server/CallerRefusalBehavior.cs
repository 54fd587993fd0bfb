using CoreWCF;
using CoreWCF.Channels;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;

namespace RpcCompare.Bindings.Wcf.Server;

/// <summary>
/// Answers every call of a caller the host does not serve (<see cref="ConnectionCaller.CurrentRefusal"/>,
/// set on the connection's flow) with the typed PermissionDenied fault saying why, before the
/// operation runs (<see cref="RpcFaultBehavior"/> turns the exception into the fault).
/// For the framing bindings (wcf-uds), whose refused peers have no HTTP layer to be answered in
/// (wcf-http answers them before CoreWCF, <see cref="Http.HttpCallerRefusal"/>). Registered only on
/// a binding that can refuse a caller, so the others pay nothing per call.
/// </summary>
internal sealed class CallerRefusalBehavior : CallContextBehavior
{
    public override object? BeforeInvoke(InstanceContext instanceContext, IClientChannel channel, Message message) =>
        ConnectionCaller.CurrentRefusal is { } refusal ? throw new RpcServiceException(RpcErrorCode.PermissionDenied, refusal) : null;
}
