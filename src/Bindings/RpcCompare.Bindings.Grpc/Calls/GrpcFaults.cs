using System.ServiceModel;
using Grpc.Core;
using RpcCompare.Description;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Grpc.Calls;

/// <summary>
/// WCF faults over gRPC. A service's <see cref="FaultException"/> becomes a status (code Unknown,
/// the fault's reason as its message, which any gRPC client shows) with the fault in trailers:
/// its code, and for a declared <see cref="FaultException{TDetail}"/> the detail's fault name and
/// the detail itself in protobuf. Our client turns that back into the same typed fault; an
/// undeclared detail type reaches it as a plain FaultException, as WCF does. Other exceptions are
/// left to gRPC, which sends no internals ("Exception was thrown by handler.").
/// </summary>
internal static class GrpcFaults
{
    public const string FaultTrailer = "rpccompare-fault";
    public const string CodeTrailer = "rpccompare-fault-code";
    public const string DetailTrailer = "rpccompare-fault-detail-bin";

    /// <summary>The status for a fault the service threw; null when the exception is no WCF fault.</summary>
    public static RpcException? ToRpcException(Exception exception, OperationDescription operation)
    {
        if (exception is not FaultException fault)
        {
            return null;
        }

        var reason = fault.Reason.ToString();
        var trailers = new Metadata { { CodeTrailer, fault.Code?.Name ?? "Sender" } };
        if (FaultDetails.Write(fault, operation) is var (name, detail))
        {
            trailers.Add(FaultTrailer, name);
            trailers.Add(DetailTrailer, detail);
        }
        else
        {
            trailers.Add(FaultTrailer, "");
        }

        return new RpcException(new Status(StatusCode.Unknown, reason), trailers, reason);
    }

    /// <summary>The fault a status carries, typed when its detail is declared on the operation; null when it carries none.</summary>
    public static FaultException? FromRpcException(RpcException exception, OperationDescription operation)
    {
        if (exception.Trailers.GetValue(FaultTrailer) is not { } name)
        {
            return null;
        }

        var reason = new FaultReason(exception.Status.Detail);
        var code = new FaultCode(exception.Trailers.GetValue(CodeTrailer) ?? "Sender");
        return FaultDetails.Read(operation, name, exception.Trailers.GetValueBytes(DetailTrailer), reason, code);
    }
}
