using System.ServiceModel;
using RpcCompare.Contracts;
using RpcCompare.Description;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>
/// The error model over the fast binding, the same as every other binding's: a refusal the service
/// throws (<see cref="RpcServiceException"/>) keeps its code and message; a WCF fault keeps its
/// reason and code, and a declared FaultException&lt;T&gt; its detail, typed again on the client;
/// anything else reaches the client as Internal without the service's internals.
/// </summary>
internal static class FastErrors
{
    /// <summary>What the client is told when the service threw something that is neither a refusal nor a fault.</summary>
    public const string InternalMessage = "The service failed while handling the call; the host's log has the details.";

    public static ErrorBody ToBody(Exception exception, OperationDescription? operation) => exception switch
    {
        RpcServiceException refusal => new ErrorBody { Code = (int)refusal.Code, Message = refusal.Message },
        FaultException fault => Fault(fault, operation),
        _ => new ErrorBody { Code = (int)RpcErrorCode.Internal, Message = InternalMessage },
    };

    /// <summary>The exception the caller gets for an Error frame of a call of <paramref name="operation"/> (null: the connection's own).</summary>
    public static Exception ToException(ErrorBody body, OperationDescription? operation)
    {
        if (!body.IsFault)
        {
            var code = Enum.IsDefined((RpcErrorCode)body.Code) ? (RpcErrorCode)body.Code : RpcErrorCode.Internal;
            return new RpcServiceException(code, body.Message);
        }

        var reason = new FaultReason(body.Message);
        var faultCode = new FaultCode(body.FaultCode.Length > 0 ? body.FaultCode : "Sender");
        return operation is null ? new FaultException(reason, faultCode, action: null) : FaultDetails.Read(operation, body.FaultName, body.FaultDetail, reason, faultCode);
    }

    private static ErrorBody Fault(FaultException fault, OperationDescription? operation)
    {
        var body = new ErrorBody { IsFault = true, Message = fault.Reason.ToString(), FaultCode = fault.Code?.Name ?? "Sender" };
        if (operation is not null && FaultDetails.Write(fault, operation) is var (name, detail))
        {
            body.FaultName = name;
            body.FaultDetail = detail;
        }

        return body;
    }
}
