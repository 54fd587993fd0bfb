using System.Reflection;

namespace RpcCompare.Description;

/// <summary>
/// One operation of a contract, in every form it is declared in. Bindings build their server and
/// client sides from this: <see cref="Inputs"/> is what a request carries (by-value and ref
/// parameters in declaration order), <see cref="Return"/> then <see cref="Outputs"/> what a reply
/// carries (WCF's order: return value, then out and ref parameters in declaration order).
/// </summary>
public sealed class OperationDescription
{
    internal OperationDescription(
        string name,
        Type declaringContract,
        string action,
        string? replyAction,
        bool isOneWay,
        OperationMethods methods,
        IReadOnlyList<ParameterDescription> parameters,
        ReturnDescription? @return,
        IReadOnlyList<FaultDescription> faults,
        IReadOnlyList<Type> knownTypes,
        Type? requestMessageType,
        Type? replyMessageType)
    {
        Name = name;
        DeclaringContract = declaringContract;
        Action = action;
        ReplyAction = replyAction;
        IsOneWay = isOneWay;
        _methods = methods;
        Parameters = parameters;
        Inputs = parameters.Where(p => p.IsInput).ToArray();
        Outputs = parameters.Where(p => p.IsOutput).ToArray();
        Return = @return;
        Faults = faults;
        KnownTypes = knownTypes;
        RequestMessageType = requestMessageType;
        ReplyMessageType = replyMessageType;
    }

    private readonly OperationMethods _methods;

    /// <summary>WCF's operation name: [OperationContract(Name)], else the method name (minus Async for Task forms).</summary>
    public string Name { get; }

    /// <summary>The contract interface that declares the operation (a base contract for inherited ones).</summary>
    public Type DeclaringContract { get; }

    public string Action { get; }

    /// <summary>Null for a one-way operation, which has no reply.</summary>
    public string? ReplyAction { get; }

    public bool IsOneWay { get; }

    public MethodInfo? SyncMethod => _methods.Sync;

    public MethodInfo? TaskMethod => _methods.Task;

    public MethodInfo? BeginMethod => _methods.Begin;

    public MethodInfo? EndMethod => _methods.End;

    public MethodInfo? ValueTaskMethod => _methods.ValueTask;

    public OperationForms Forms =>
        (SyncMethod is null ? OperationForms.None : OperationForms.Synchronous)
        | (TaskMethod is null ? OperationForms.None : OperationForms.Task)
        | (BeginMethod is null ? OperationForms.None : OperationForms.AsyncPattern)
        | (ValueTaskMethod is null ? OperationForms.None : OperationForms.ValueTask);

    /// <summary>Every contract method that is a form of this operation (an End method included).</summary>
    public IEnumerable<MethodInfo> Methods =>
        new[] { SyncMethod, TaskMethod, BeginMethod, EndMethod, ValueTaskMethod }.OfType<MethodInfo>();

    /// <summary>Every parameter in declaration order (a CancellationToken excluded: it is not data).</summary>
    public IReadOnlyList<ParameterDescription> Parameters { get; }

    public IReadOnlyList<ParameterDescription> Inputs { get; }

    public IReadOnlyList<ParameterDescription> Outputs { get; }

    /// <summary>Null for void, Task and ValueTask.</summary>
    public ReturnDescription? Return { get; }

    /// <summary>The [FaultContract]s declared on the operation (WCF reads them from the synchronous or Task method).</summary>
    public IReadOnlyList<FaultDescription> Faults { get; }

    /// <summary>[ServiceKnownType]s that apply to the operation (its own and its contract's).</summary>
    public IReadOnlyList<Type> KnownTypes { get; }

    /// <summary>The [MessageContract] type of the request, when the operation takes one instead of parameters.</summary>
    public Type? RequestMessageType { get; }

    /// <summary>The [MessageContract] type of the reply, when the operation returns one.</summary>
    public Type? ReplyMessageType { get; }

    /// <summary>True when the request or reply carries a <see cref="Stream"/> (WCF's streamed transfer).</summary>
    public bool IsStreamed => Parameters.Any(p => p.IsStream) || Return?.IsStream == true;

    public override string ToString() => Name;

    internal OperationDescription WithValueTaskForm(MethodInfo valueTask) =>
        new(Name, DeclaringContract, Action, ReplyAction, IsOneWay, _methods with { ValueTask = valueTask },
            Parameters, Return, Faults, KnownTypes, RequestMessageType, ReplyMessageType);
}

/// <summary>The methods one operation is declared with; at least one is set.</summary>
internal sealed record OperationMethods(MethodInfo? Sync, MethodInfo? Task, MethodInfo? Begin, MethodInfo? End, MethodInfo? ValueTask);
