using System.Collections.Concurrent;
using System.Reflection;
using System.ServiceModel;
using Wcf = System.ServiceModel.Description;

namespace RpcCompare.Description;

/// <summary>
/// Reads a [ServiceContract] interface once per process. WCF's own loader
/// (System.ServiceModel.Description.ContractDescription.GetContract) applies WCF's rules: names
/// and actions, the Async suffix, merging a synchronous and a Task method into one operation,
/// one-way and parameter checks, faults, [ServiceKnownType], contract inheritance and callbacks.
/// This class translates its result and adds what WCF does not know: ValueTask forms and
/// CancellationToken parameters. A contract WCF refuses is refused with WCF's message.
/// </summary>
public static class ContractLoader
{
    private const string AsyncSuffix = "Async";

    // Lazy caches a refusal too, so every caller sees the same exception for the same contract.
    private static readonly ConcurrentDictionary<Type, Lazy<ServiceContractDescription>> Loaded = new();

    public static ServiceContractDescription Load(Type contract)
    {
        ArgumentNullException.ThrowIfNull(contract);
        return Loaded.GetOrAdd(contract, static c => new Lazy<ServiceContractDescription>(() => Read(c))).Value;
    }

    /// <summary>Reads without the cache (the tests read each contract fresh, so a fault in reading cannot hide behind a cached result).</summary>
    internal static ServiceContractDescription Read(Type contract)
    {
        if (!contract.IsInterface)
        {
            throw new ContractLoadException(contract, "a service contract must be an interface.");
        }

        Wcf.ContractDescription wcf;
        try
        {
            wcf = Wcf.ContractDescription.GetContract(contract);
        }
        catch (Exception e) when (e is InvalidOperationException or ArgumentException or NotSupportedException)
        {
            throw new ContractLoadException(contract, e.Message, e);
        }

        var attribute = contract.GetCustomAttribute<ServiceContractAttribute>(inherit: false)!;
        var description = new ServiceContractDescription(
            contract,
            wcf.Name,
            wcf.Namespace,
            wcf.ConfigurationName,
            attribute.SessionMode,
            wcf.CallbackContractType);

        var operations = new List<OperationDescription>();
        var callbacks = new List<OperationDescription>();
        foreach (var operation in wcf.Operations)
        {
            var isCallback = operation.Messages[0].Direction == Wcf.MessageDirection.Output;
            (isCallback ? callbacks : operations).Add(Translate(operation));
        }

        description.Operations = MergeValueTaskForms(contract, operations);
        description.CallbackOperations = MergeValueTaskForms(wcf.CallbackContractType ?? contract, callbacks);
        return description;
    }

    private static OperationDescription Translate(Wcf.OperationDescription operation)
    {
        var methods = new OperationMethods(operation.SyncMethod, operation.TaskMethod, operation.BeginMethod, operation.EndMethod, ValueTask: null);
        var name = operation.Name;
        var action = operation.Messages[0].Action;
        var replyAction = operation.IsOneWay ? null : operation.Messages[1].Action;
        var returnPart = operation.IsOneWay ? null : operation.Messages[1].Body.ReturnValue?.Name;

        // WCF sees a ValueTask method as a synchronous one returning a struct, named with its
        // Async suffix. RpcCompare names it as WCF names a Task method (suffix removed), and
        // moves the default action with the name; an explicit Name or Action stays as written.
        if (operation.SyncMethod is { } sync && IsValueTask(sync.ReturnType))
        {
            methods = methods with { Sync = null, ValueTask = sync };
            var explicitName = sync.GetCustomAttribute<OperationContractAttribute>()?.Name;
            if (string.IsNullOrEmpty(explicitName) && name.EndsWith(AsyncSuffix, StringComparison.Ordinal) && name.Length > AsyncSuffix.Length)
            {
                var logical = name[..^AsyncSuffix.Length];
                action = Rename(action, name, logical);
                replyAction = replyAction is null ? null : Rename(replyAction, name + "Response", logical + "Response");
                returnPart = returnPart == name + "Result" ? logical + "Result" : returnPart;
                name = logical;
            }
        }

        var parameters = ParametersOf(methods);
        var returnType = ReturnTypeOf(methods);
        return new OperationDescription(
            name,
            operation.DeclaringContract.ContractType,
            action,
            replyAction,
            operation.IsOneWay,
            methods,
            parameters,
            returnType is null ? null : new ReturnDescription(returnPart ?? name + "Result", returnType),
            operation.Faults.Select(f => new FaultDescription(f.DetailType, f.Name, f.Namespace, f.Action)).ToArray(),
            operation.KnownTypes.ToArray(),
            operation.Messages[0].MessageType,
            operation.IsOneWay ? null : operation.Messages[1].MessageType);
    }

    /// <summary>Replaces the operation name at the end of a default action; an explicit action is left alone.</summary>
    private static string Rename(string action, string from, string to) =>
        action.EndsWith("/" + from, StringComparison.Ordinal) ? action[..^from.Length] + to : action;

    private static List<ParameterDescription> ParametersOf(OperationMethods methods)
    {
        var parameters = new List<ParameterDescription>();
        if ((methods.Sync ?? methods.Task ?? methods.ValueTask) is { } method)
        {
            Add(method.GetParameters());
        }
        else if (methods.Begin is { } begin)
        {
            // Begin(inputs..., AsyncCallback, object state); End(out/ref..., IAsyncResult).
            Add(begin.GetParameters()[..^2]);
            Add(methods.End!.GetParameters()[..^1].Where(p => p.ParameterType.IsByRef && parameters.All(known => known.Name != p.Name)));
        }

        return parameters;

        void Add(IEnumerable<ParameterInfo> infos)
        {
            foreach (var info in infos.Where(static p => p.ParameterType != typeof(CancellationToken)))
            {
                var byRef = info.ParameterType.IsByRef;
                var direction = !byRef ? ParameterDirection.In : info.IsOut && !info.IsIn ? ParameterDirection.Out : ParameterDirection.Ref;
                var partName = info.GetCustomAttribute<MessageParameterAttribute>()?.Name ?? info.Name!;
                var type = byRef ? info.ParameterType.GetElementType()! : info.ParameterType;
                parameters.Add(new ParameterDescription(info.Name!, partName, parameters.Count, type, direction, info));
            }
        }
    }

    private static Type? ReturnTypeOf(OperationMethods methods)
    {
        var declared = methods.Sync?.ReturnType ?? methods.Task?.ReturnType ?? methods.ValueTask?.ReturnType ?? methods.End?.ReturnType;
        if (declared is null || declared == typeof(void) || declared == typeof(Task) || declared == typeof(ValueTask))
        {
            return null;
        }

        return declared.IsGenericType && (declared.GetGenericTypeDefinition() == typeof(Task<>) || declared.GetGenericTypeDefinition() == typeof(ValueTask<>))
            ? declared.GetGenericArguments()[0]
            : declared;
    }

    private static bool IsValueTask(Type type) =>
        type == typeof(ValueTask) || (type.IsGenericType && type.GetGenericTypeDefinition() == typeof(ValueTask<>));

    /// <summary>
    /// A ValueTask method renamed to its logical name may now share it with a synchronous or Task
    /// method. Like WCF's sync/Task merge, the two become one operation when they take the same
    /// inputs and return the same type; otherwise the contract is refused as WCF refuses two
    /// operations with one name.
    /// </summary>
    private static OperationDescription[] MergeValueTaskForms(Type contract, List<OperationDescription> operations)
    {
        var merged = new List<OperationDescription>();
        foreach (var operation in operations)
        {
            var index = merged.FindIndex(o => o.Name == operation.Name);
            if (index < 0)
            {
                merged.Add(operation);
                continue;
            }

            var existing = merged[index];
            var (valueTask, other) = operation.ValueTaskMethod is not null ? (operation, existing) : (existing, operation);
            if (valueTask.ValueTaskMethod is null || other.ValueTaskMethod is not null || !SameSignature(valueTask, other))
            {
                var first = existing.Methods.First();
                var second = operation.Methods.First();
                throw new ContractLoadException(
                    contract,
                    $"Cannot have two operations in the same contract with the same name, methods {first.Name} and {second.Name} in type {contract.FullName} violate this rule. A ValueTask method is one form of an operation only when it takes the same parameters and returns the same type as the other form; otherwise give one of them [OperationContract(Name)].");
            }

            merged[index] = other.WithValueTaskForm(valueTask.ValueTaskMethod);
        }

        return merged.ToArray();
    }

    private static bool SameSignature(OperationDescription a, OperationDescription b) =>
        a.Return?.Type == b.Return?.Type
        && a.Parameters.Select(p => (p.Type, p.Direction)).SequenceEqual(b.Parameters.Select(p => (p.Type, p.Direction)));
}
