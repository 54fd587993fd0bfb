using System.Collections.Concurrent;
using System.Collections.Frozen;
using System.Reflection;
using System.Runtime.Serialization;
using System.ServiceModel;
using RpcCompare.Description;
using RpcCompare.Description.DataContracts;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Protobuf.Mapping;

/// <summary>
/// A contract as the protobuf bindings (gRPC, fast) carry it, built once per contract from the
/// contract model: each operation either becomes an <see cref="OperationMessages"/> or is refused
/// with the reason (worded for a transport by <see cref="RefusalsFor"/>).
/// <para>
/// The mapping: an operation that takes exactly one data contract (a class) sends it as the
/// request message itself, and one that returns a data contract with no out or ref values
/// returns it as the reply itself (the wire of protobuf-net.Grpc and of the exported .proto);
/// no value is google.protobuf.Empty; anything else travels in an envelope of its own,
/// <c>{Operation}Request</c> with the parameters as fields 1..n in declaration order and
/// <c>{Operation}Response</c> with the return value as field 1 and the out and ref values after it.
/// A Stream parameter or result (the whole request or reply, as WCF's streamed transfer has it)
/// travels as a stream of chunks (gRPC: <see cref="StreamChunk"/> messages).
/// </para>
/// </summary>
public sealed class ContractMessages
{
    /// <summary>Stands for the transport's name in a refusal's reason ("gRPC has no callback channel").</summary>
    private const string Transport = "{transport}";

    private static readonly ConcurrentDictionary<Type, Lazy<ContractMessages>> Maps = new();
    private static readonly ConcurrentDictionary<(Assembly Assembly, string Package), FrozenSet<string>> SharedNames = new();
    private static int s_envelopes;

    private ContractMessages(ServiceContractDescription description, string serviceName)
    {
        Description = description;
        ServiceName = serviceName;
    }

    public ServiceContractDescription Description { get; }

    public string ServiceName { get; }

    /// <summary>The operations carried.</summary>
    public IReadOnlyList<OperationMessages> Operations { get; private set; } = [];

    // Why the contract (operation null) or an operation is not carried, with Transport for the transport's name.
    private IReadOnlyList<(string? Operation, string Reason)> Refusals { get; set; } = [];

    /// <summary>Why the contract (operation null) or an operation is not carried, naming <paramref name="transport"/> ("gRPC") where the reason is the transport's.</summary>
    public IEnumerable<(string? Operation, string Reason)> RefusalsFor(string transport) =>
        Refusals.Select(r => (r.Operation, r.Reason.Replace(Transport, transport, StringComparison.Ordinal)));

    /// <summary>The contract's map, built on first use. Throws <see cref="ContractLoadException"/> for a type that is no contract.</summary>
    public static ContractMessages For(Type contract)
    {
        ArgumentNullException.ThrowIfNull(contract);
        return Maps.GetOrAdd(contract, static c => new Lazy<ContractMessages>(() => Build(ContractLoader.Load(c)))).Value;
    }

    /// <summary>The carried operation a method of the contract (any of its forms) belongs to, or null.</summary>
    public OperationMessages? OperationOf(MethodInfo method) =>
        Description.OperationOf(method) is { } operation ? Operations.FirstOrDefault(o => o.Description == operation) : null;

    private static ContractMessages Build(ServiceContractDescription description)
    {
        var map = new ContractMessages(description, ProtoNames.ServiceName(description.ContractType));
        var refusals = new List<(string?, string)>();
        if (description.CallbackContractType is { } callback)
        {
            refusals.Add((null, $"{Transport} has no callback channel (CallbackContract {callback.Name})"));
        }

        var operations = new List<OperationMessages>();
        var takenNames = DataTypeNames(description);
        var sharedNames = SharedNames.GetOrAdd((description.ContractType.Assembly, ProtoNames.PackageOf(map.ServiceName)), static key => OperationNamesShared(key.Assembly, key.Package));
        try
        {
            // The whole contract's types at once: a type's known subtypes come from every operation.
            ProtobufModel.Configure(description.Operations.SelectMany(ValueTypes), [.. description.Operations.SelectMany(o => o.KnownTypes).Distinct()]);
        }
        catch (Exception e) when (e is InvalidDataContractException or InvalidOperationException or NotSupportedException or ArgumentException)
        {
            // Each operation with a type the serializers refuse is refused below, in their words.
        }

        foreach (var operation in description.Operations)
        {
            var reasons = Refuse(operation).ToList();
            if (reasons.Count == 0)
            {
                try
                {
                    operations.Add(map.Map(operation, takenNames, sharedNames));
                }
                catch (Exception e) when (e is InvalidDataContractException or InvalidOperationException or NotSupportedException or ArgumentException)
                {
                    reasons.Add($"protobuf-net cannot write its messages: {e.Message}");
                }
            }

            refusals.AddRange(reasons.Select(r => ((string?)operation.Name, r)));
        }

        map.Operations = operations;
        map.Refusals = refusals;
        return map;
    }

    /// <summary>Shapes with no protobuf mapping (yet), before any message is built.</summary>
    private static IEnumerable<string> Refuse(OperationDescription operation)
    {
        if (operation.RequestMessageType is not null || operation.ReplyMessageType is not null)
        {
            yield return $"[MessageContract] messages have no {Transport} mapping";
            yield break;
        }

        if (operation.IsStreamed)
        {
            foreach (var reason in RefuseStream(operation))
            {
                yield return reason;
            }
        }

        if (operation.SyncMethod is null && operation.TaskMethod is null && operation.ValueTaskMethod is null)
        {
            yield return $"it has only the Begin/End form; declare a synchronous or Task-based form for {Transport}";
        }
        else if (operation.Outputs.Count > 0 && operation.SyncMethod is null)
        {
            yield return $"out and ref parameters ({string.Join(", ", operation.Outputs.Select(p => p.Name))}) need the synchronous form, which async forms cannot have";
        }

        if (StreamItemOf(operation) is { } item && (operation.Outputs.Count > 0 || !IsMessageClass(item)))
        {
            yield return $"a streamed result must be IAsyncEnumerable of a data contract class with no out or ref values; it is IAsyncEnumerable<{TypeNames.Display(item)}>";
        }

        foreach (var value in operation.Parameters.Select(p => (p.Name, p.Type)).Concat(operation.Return is { } r ? [("result", r.Type)] : []))
        {
            if (value.Type == typeof(object) || (value.Type.IsInterface && StreamItemOf(operation) is null))
            {
                yield return $"{value.Name} is {TypeNames.Display(value.Type)}: protobuf needs a concrete type to write";
            }
        }
    }

    /// <summary>
    /// WCF's rule for streamed transfer, which is the protobuf bindings' too: the Stream is the whole
    /// request or reply (a stream of chunks), so nothing else may travel beside it in that direction.
    /// </summary>
    private static IEnumerable<string> RefuseStream(OperationDescription operation)
    {
        foreach (var value in operation.Parameters.Where(p => p.IsStream).Select(p => p.Type).Concat(operation.Return is { IsStream: true } r ? [r.Type] : []))
        {
            if (value != typeof(Stream))
            {
                yield return $"a streamed value is declared as System.IO.Stream; {TypeNames.Display(value)} is a kind the receiving side cannot create";
            }
        }

        if (operation.Parameters.Any(p => p.IsStream) && (operation.Inputs.Count > 1 || operation.Outputs.Count > 0))
        {
            yield return $"a Stream parameter must be the operation's only parameter: it is the whole request, sent as a {Transport} stream of chunks (WCF's streamed transfer has the same rule)";
        }

        if (operation.Return is { IsStream: true } && operation.Outputs.Count > 0)
        {
            yield return $"a Stream result is the whole reply, sent as a {Transport} stream of chunks: no out or ref values can travel beside it";
        }
    }

    private OperationMessages Map(OperationDescription operation, HashSet<string> takenNames, FrozenSet<string> sharedNames)
    {
        var streamItem = StreamItemOf(operation);
        Type[] values = [.. ValueTypes(operation)];
        ProtobufModel.Configure(values, operation.KnownTypes);
        foreach (var type in values.Where(t => !ProtobufModel.Model.CanSerialize(t)))
        {
            throw new NotSupportedException($"{TypeNames.Display(type)} is not a type protobuf-net serializes");
        }

        var name = streamItem is not null && operation.SyncMethod is { } method && method.GetCustomAttribute<OperationContractAttribute>()?.Name is null or ""
            && operation.Name.EndsWith("Async", StringComparison.Ordinal)
            ? operation.Name[..^"Async".Length]
            : operation.Name;
        var inputs = operation.Inputs;
        // Envelopes are named after the operation, or after service and operation where another
        // contract of the same package has an operation of that name (one package, one namespace of messages).
        var envelope = sharedNames.Contains(name) ? ServiceName[(ServiceName.LastIndexOf('.') + 1)..] + name : name;
        var request = inputs switch
        {
            [] => ProtobufMessage.Empty,
            [{ IsStream: true }] => ProtobufMessage.Chunks,
            // A ref parameter comes back in the reply: it travels in an envelope both ways.
            [var only] when IsMessageClass(only.Type) && only.Direction == ParameterDirection.In => ProtobufMessage.Bare(only.Type),
            _ => Envelope(envelope, "Request", [.. inputs.Select(p => (p.Name, p.Type))], takenNames),
        };
        var reply = (streamItem, operation.Return, operation.Outputs.Count) switch
        {
            ({ } item, _, _) => ProtobufMessage.Bare(item),
            (null, { IsStream: true }, _) => ProtobufMessage.Chunks,
            (null, null, 0) => ProtobufMessage.Empty,
            (null, { } result, 0) when IsMessageClass(result.Type) => ProtobufMessage.Bare(result.Type),
            _ => Envelope(envelope, "Response", [.. ResultField(operation), .. operation.Outputs.Select(p => (p.Name, p.Type))], takenNames),
        };
        return new OperationMessages(operation, ServiceName, name, request, reply, streamItem);
    }

    /// <summary>The return value's field, named "result" (or "return_value" when a parameter is called result).</summary>
    private static IEnumerable<(string, Type)> ResultField(OperationDescription operation) =>
        operation.Return is { } result
            ? [(operation.Parameters.Any(p => p.Name == "result") ? "return_value" : "result", result.Type)]
            : [];

    private static ProtobufMessage Envelope(string operation, string suffix, IReadOnlyList<(string Name, Type Type)> values, HashSet<string> takenNames)
    {
        // The contract's own data types keep their names; an envelope that would collide takes a suffix.
        var protoName = operation + suffix;
        while (!takenNames.Add(protoName))
        {
            protoName += "Envelope";
        }

        var clrName = $"RpcCompare.Grpc.Envelopes.E{Interlocked.Increment(ref s_envelopes)}.{protoName}";
        var fields = EnvelopeTypes.Emit(clrName, protoName, values);
        return new ProtobufMessage(MessageShape.Envelope, fields.Count > 0 ? fields[0].Field.DeclaringType! : throw new InvalidOperationException("An envelope has at least one value."), fields);
    }

    /// <summary>
    /// The operation names two or more service contracts of <paramref name="assembly"/> in
    /// <paramref name="package"/> share: decided from the assembly alone, so the names never depend on
    /// which contract a process happened to map first (and scanned once per assembly and package).
    /// </summary>
    private static FrozenSet<string> OperationNamesShared(Assembly assembly, string package)
    {
        var names = new Dictionary<string, int>(StringComparer.Ordinal);
        Type?[] types;
        try
        {
            types = assembly.GetTypes();
        }
        catch (ReflectionTypeLoadException e)
        {
            // An assembly with an optional dependency missing: the types that did load.
            types = e.Types;
        }

        foreach (var contract in types.OfType<Type>().Where(t => t.IsInterface && t.IsDefined(typeof(ServiceContractAttribute), inherit: false)))
        {
            try
            {
                if (ProtoNames.PackageOf(ProtoNames.ServiceName(contract)) != package)
                {
                    continue;
                }

                foreach (var name in ContractLoader.Load(contract).Operations.Select(o => o.Name).Distinct())
                {
                    names[name] = names.GetValueOrDefault(name) + 1;
                }
            }
            catch (Exception e) when (e is ContractLoadException or InvalidOperationException)
            {
                // A contract that does not load is never served beside this one.
            }
        }

        return names.Where(n => n.Value > 1).Select(n => n.Key).ToFrozenSet(StringComparer.Ordinal);
    }

    /// <summary>The names the contract's data types take in its package.</summary>
    private static HashSet<string> DataTypeNames(ServiceContractDescription description)
    {
        var roots = description.Operations.SelectMany(o => o.Parameters.Select(p => p.Type).Concat(o.Return is { } r ? [r.Type] : []).Concat(o.KnownTypes));
        try
        {
            return [.. DataContractLayout.Reachable(roots).Select(t => t.Name)];
        }
        catch (InvalidDataContractException)
        {
            // Refused per operation, with the serializer's own message.
            return [];
        }
    }

    /// <summary>The types of an operation's parameters, result (a stream's item) and fault details.</summary>
    private static IEnumerable<Type> ValueTypes(OperationDescription operation) =>
        [.. operation.Parameters.Where(p => !p.IsStream).Select(p => p.Type),
         .. (StreamItemOf(operation) ?? operation.Return?.Type) is { } result && !typeof(Stream).IsAssignableFrom(result) ? [result] : Array.Empty<Type>(),
         .. operation.Faults.Select(f => f.DetailType)];

    private static Type? StreamItemOf(OperationDescription operation) =>
        operation.Return?.Type is { IsGenericType: true } type && type.GetGenericTypeDefinition() == typeof(IAsyncEnumerable<>)
            ? type.GetGenericArguments()[0]
            : null;

    /// <summary>A data contract that can be a message by itself (protobuf-net's messages here are classes).</summary>
    private static bool IsMessageClass(Type type) => !type.IsValueType && DataContractLayout.IsDataType(type);
}
