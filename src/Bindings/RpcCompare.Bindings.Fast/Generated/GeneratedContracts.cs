using System.Collections.Concurrent;
using System.Reflection;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Description;
using RpcCompare.Protobuf.Mapping;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Fast.Generated;

/// <summary>
/// Finds a contract's generated code and checks it against the contract model before anyone uses
/// it: the generator reads WCF's rules from symbols, a second implementation of what
/// <see cref="ContractMessages"/> reads by reflection, so every operation's name and both messages'
/// shapes, types and envelope fields must agree, or the contract keeps the reflection path (never a
/// wrong wire). Looked for in the contract's assembly, this binding's, and every loaded assembly
/// that references this binding (a team's host listing its contracts in [FastContracts]).
/// </summary>
internal static class GeneratedContracts
{
    private static readonly ConcurrentDictionary<Type, Lazy<Lookup>> Lookups = new();

    /// <summary>
    /// The contract's checked generated code, or why it has none. A miss is not kept: an assembly with
    /// the code may be loaded later (a library the host references but had not used yet).
    /// </summary>
    public static Lookup Find(Type contract)
    {
        var lookup = Lookups.GetOrAdd(contract, static c => new Lazy<Lookup>(() => LookSafely(c)));
        if (lookup.Value.Contract is null && lookup.Value.Missing)
        {
            Lookups.TryRemove(new KeyValuePair<Type, Lazy<Lookup>>(contract, lookup));
        }

        return lookup.Value;
    }

    /// <summary>Whatever goes wrong finding or checking generated code leaves the reflection path, with the reason.</summary>
    private static Lookup LookSafely(Type contract)
    {
        try
        {
            return Look(contract);
        }
        catch (Exception e) when (e is TypeLoadException or FileNotFoundException or FileLoadException or BadImageFormatException or MissingMethodException
            or InvalidCastException or ArgumentException or InvalidOperationException or NotSupportedException or System.Reflection.TargetInvocationException)
        {
            return new Lookup(null, $"its generated code could not be loaded ({e.GetType().Name}: {e.Message})");
        }
    }

    private static Lookup Look(Type contract)
    {
        var generated = Candidates(contract)
            .SelectMany(a => a.GetCustomAttributes<GeneratedFastContractAttribute>())
            .FirstOrDefault(a => a.Contract == contract);
        if (generated is null)
        {
            return new Lookup(null, "no generated code ([FastContracts] lists it in no loaded assembly)", Missing: true);
        }

        var code = (GeneratedFastContract)Activator.CreateInstance(generated.Generated)!;
        ContractMessages messages;
        try
        {
            messages = ContractMessages.For(contract);
        }
        catch (ContractLoadException e)
        {
            return new Lookup(null, $"the contract model refuses the contract: {e.Message}");
        }

        var differences = Differences(code, messages).ToList();
        if (differences.Count > 0)
        {
            return new Lookup(null, $"its generated code differs from the contract model ({string.Join("; ", differences)})");
        }

        foreach (var operation in code.Operations)
        {
            Register(operation.Request, operation.RequestType);
            Register(operation.Reply, operation.ReplyType);
        }

        var byName = messages.Operations.Select((o, i) => (o.Name, Index: i)).ToDictionary(p => p.Name, p => p.Index, StringComparer.Ordinal);
        return new Lookup(new CheckedContract(code, messages, [.. code.Operations.Select(o => byName[o.Name])]), "generated code");
    }

    private static IEnumerable<Assembly> Candidates(Type contract)
    {
        var binding = typeof(GeneratedContracts).Assembly;
        var bindingName = binding.GetName().Name;
        return new[] { contract.Assembly, binding }
            .Concat(AppDomain.CurrentDomain.GetAssemblies().Where(a => !a.IsDynamic && a.GetReferencedAssemblies().Any(r => r.Name == bindingName)))
            .Distinct();
    }

    /// <summary>Where the generated table and the contract model disagree, one line each.</summary>
    internal static IEnumerable<string> Differences(GeneratedFastContract code, ContractMessages messages)
    {
        var runtime = messages.Operations.ToDictionary(o => o.Name, StringComparer.Ordinal);
        foreach (var operation in code.Operations)
        {
            if (!runtime.Remove(operation.Name, out var model))
            {
                yield return $"{operation.Name} is no operation the contract model carries";
                continue;
            }

            foreach (var difference in Differences($"{operation.Name} request", operation.Request, operation.RequestType, model.Request)
                .Concat(Differences($"{operation.Name} reply", operation.Reply, operation.ReplyType, model.Reply)))
            {
                yield return difference;
            }
        }

        foreach (var missing in runtime.Keys)
        {
            yield return $"{missing} has no generated code";
        }
    }

    private static IEnumerable<string> Differences(string what, GeneratedMessage generated, Type type, ProtobufMessage model)
    {
        if (generated.Shape != model.Shape)
        {
            yield return $"{what} is {generated} against {model.Shape}";
            yield break;
        }

        if (model.Shape != MessageShape.Envelope)
        {
            if (type != model.Type)
            {
                yield return $"{what} is {type.Name} against {model.Type.Name}";
            }

            yield break;
        }

        var fields = model.Fields.Select(f => (f.Field.Name, f.Field.FieldType)).ToList();
        var written = generated.Fields.Select(n => (Name: n, FieldType: type.GetField(n)?.FieldType)).ToList();
        if (!fields.SequenceEqual(written.Select(w => (w.Name, w.FieldType!))))
        {
            yield return $"{what} has fields ({string.Join(", ", written.Select(w => $"{w.FieldType?.Name} {w.Name}"))}) against ({string.Join(", ", fields.Select(f => $"{f.FieldType.Name} {f.Name}"))})";
        }
    }

    private static void Register(GeneratedMessage message, Type type)
    {
        if (message.Shape == MessageShape.Envelope)
        {
            EnvelopeTypes.Register(type, message.Fields);
        }
    }

    /// <summary>
    /// A contract's generated code, or null and why not (said in the host's log); Missing when none was
    /// found at all (worth looking again later).
    /// </summary>
    internal sealed record Lookup(CheckedContract? Contract, string Reason, bool Missing = false);

    /// <summary>Generated code that agrees with the contract model, and which model operation each generated one is.</summary>
    internal sealed class CheckedContract(GeneratedFastContract code, ContractMessages messages, int[] modelIndex)
    {
        /// <summary>The generated operation that is the model's operation <paramref name="index"/>.</summary>
        public GeneratedOperation Operation(int index) => code.Operations[Array.IndexOf(modelIndex, index)];

        public object CreateClient(FastConnectionPool pool)
        {
            var contract = FastContract.For(code.Contract);
            var operations = code.Operations.Select((o, i) =>
            {
                var model = messages.Operations[modelIndex[i]];
                return new FastGeneratedClient.ClientOperation(modelIndex[i], model.Description,
                    model.Request.Shape == MessageShape.Chunks, model.Reply.Shape == MessageShape.Chunks, o.ReplyReader(model.Description));
            });
            return code.CreateClient(new FastGeneratedClient(pool, contract, [.. operations]));
        }
    }
}
