using System.Reflection;
using System.Runtime.Serialization;
using ProtoBuf;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Description;
using RpcCompare.Description.DataContracts;

namespace RpcCompare.Bindings.Grpc;

/// <summary>
/// What the grpc-* bindings carry today: what protobuf-net.Grpc binds, namely one data contract
/// in and one out per operation (or none), every data member numbered by an explicit Order and
/// every known type declared to protobuf. Anything else is refused before the server listens and
/// before a client proxy is made, so a contract never fails at its first call or takes the other
/// contracts' gRPC services down with it.
/// </summary>
internal sealed class GrpcCarryRules : CarryRules
{
    private const string OneMessage = "this gRPC binding (protobuf-net.Grpc) carries one data contract as the request and one as the reply";

    private GrpcCarryRules()
    {
    }

    public static GrpcCarryRules Instance { get; } = new();

    protected override IEnumerable<string> RefuseContract(ServiceContractDescription contract)
    {
        if (contract.CallbackContractType is { } callback)
        {
            yield return $"gRPC has no callback channel (CallbackContract {callback.Name})";
        }
    }

    protected override IEnumerable<string> RefuseOperation(ServiceContractDescription contract, OperationDescription operation)
    {
        if (operation.RequestMessageType is not null || operation.ReplyMessageType is not null)
        {
            yield return "[MessageContract] messages have no gRPC mapping";
            yield break;
        }

        if (operation.Inputs.Count > 1)
        {
            yield return $"it takes {operation.Inputs.Count} parameters ({string.Join(", ", operation.Inputs.Select(p => p.Name))}); {OneMessage}";
        }
        else if (operation.Inputs is [var input] && !DataContractLayout.IsDataType(input.Type))
        {
            yield return $"its parameter {input.Name} is {TypeNames.Display(input.Type)}, not a data contract; {OneMessage}";
        }

        if (operation.Outputs.Count > 0)
        {
            yield return $"out and ref parameters ({string.Join(", ", operation.Outputs.Select(p => p.Name))}) have no place in its one reply message";
        }

        if (operation.Return is { } result && !DataContractLayout.IsDataType(result.Type))
        {
            yield return $"it returns {TypeNames.Display(result.Type)}, not a data contract; {OneMessage}";
        }

        foreach (var reason in RefuseDataTypes(operation))
        {
            yield return reason;
        }
    }

    /// <summary>Data types protobuf-net would write wrongly or not at all.</summary>
    private static IEnumerable<string> RefuseDataTypes(OperationDescription operation)
    {
        Type[] roots = [.. operation.Inputs.Select(p => p.Type), .. operation.Return is null ? [] : new[] { operation.Return.Type }, .. operation.KnownTypes];
        IReadOnlyList<DataTypeDescription> reached;
        string? invalid = null;
        try
        {
            reached = DataContractLayout.Reachable(roots);
        }
        catch (InvalidDataContractException e)
        {
            reached = [];
            invalid = e.Message;
        }

        if (invalid is not null)
        {
            yield return invalid;
        }

        foreach (var type in reached)
        {
            if (type.Kind == DataTypeKind.Poco && !type.Type.IsDefined(typeof(ProtoContractAttribute)))
            {
                yield return $"{TypeNames.Display(type.Type)} is not a [DataContract]; protobuf-net serializes only data contracts";
            }
            else if (type.Members.Count > 0 && !type.IsNumberedByOrder)
            {
                var unordered = type.Members.Where(m => m.Order < 1).Select(m => m.Name);
                yield return $"data contract {TypeNames.Display(type.Type)} has members without distinct Orders of 1 or more ({string.Join(", ", unordered.DefaultIfEmpty("Orders repeat"))}); protobuf-net would leave them off the wire";
            }

            foreach (var known in type.KnownTypes.Concat(operation.KnownTypes.Where(k => k.BaseType == type.Type)).Distinct())
            {
                if (known.BaseType == type.Type && !type.Type.GetCustomAttributes<ProtoIncludeAttribute>(inherit: false).Any(i => i.KnownType == known))
                {
                    yield return $"known type {TypeNames.Display(known)} of {TypeNames.Display(type.Type)} is not declared to protobuf ([ProtoInclude] on {TypeNames.Display(type.Type)})";
                }
            }
        }
    }
}
