using System.Reflection;
using System.ServiceModel;
using RpcCompare.Description;

namespace RpcCompare.Protobuf.Messages;

/// <summary>
/// A WCF fault's detail in protobuf, for bindings that carry faults beside the reply (gRPC in
/// trailers, the fast binding in its error frame): written only for a detail type the operation
/// declares ([FaultContract]), and typed again only by a declared fault name, as WCF does.
/// </summary>
public static class FaultDetails
{
    /// <summary>The declared fault's name and its detail in protobuf; null for a fault with no declared detail.</summary>
    public static (string FaultName, byte[] Detail)? Write(FaultException fault, OperationDescription operation)
    {
        ArgumentNullException.ThrowIfNull(fault);
        ArgumentNullException.ThrowIfNull(operation);
        var type = fault.GetType();
        if (!type.IsGenericType || type.GetGenericTypeDefinition() != typeof(FaultException<>))
        {
            return null;
        }

        var detailType = type.GetGenericArguments()[0];
        var detail = type.GetProperty(nameof(FaultException<int>.Detail), BindingFlags.Public | BindingFlags.Instance)!.GetValue(fault);
        return operation.Faults.FirstOrDefault(f => f.DetailType == detailType) is { } declared && detail is not null
            ? (declared.Name, ProtobufModel.ToBytes(detail))
            : null;
    }

    /// <summary>The fault a binding received: a FaultException&lt;T&gt; when <paramref name="faultName"/> is declared and a detail came, else a plain FaultException.</summary>
    public static FaultException Read(OperationDescription operation, string? faultName, byte[]? detail, FaultReason reason, FaultCode code)
    {
        ArgumentNullException.ThrowIfNull(operation);
        if (operation.Faults.FirstOrDefault(f => f.Name == faultName) is { } declared && detail is not null)
        {
            var value = ProtobufModel.FromBytes(declared.DetailType, detail);
            return (FaultException)Activator.CreateInstance(typeof(FaultException<>).MakeGenericType(declared.DetailType), value, reason, code, declared.Action)!;
        }

        return new FaultException(reason, code, action: null);
    }
}
