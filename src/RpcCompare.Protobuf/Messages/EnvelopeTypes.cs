using System.Reflection;
using System.Reflection.Emit;

namespace RpcCompare.Protobuf.Messages;

/// <summary>One field of an envelope: the CLR field and the protobuf field number it is written as.</summary>
public sealed record EnvelopeField(FieldInfo Field, int Number);

/// <summary>
/// Emits the request and reply messages of operations that do not already take or return one data
/// contract: a plain class per message, one public field per value (fields 1..n in declaration
/// order), registered with <see cref="ProtobufModel"/> under the message's proto name. Emitted
/// rather than generic tuples so every operation has a message of its own name and the .proto and
/// reflection show the parameters' own names.
/// </summary>
public static class EnvelopeTypes
{
    private static readonly ModuleBuilder Module = AssemblyBuilder
        .DefineDynamicAssembly(new AssemblyName("RpcCompare.Grpc.Envelopes"), AssemblyBuilderAccess.Run)
        .DefineDynamicModule("RpcCompare.Grpc.Envelopes");

    private static readonly object Gate = new();

    // Compiled envelopes registered so far (Register), each once.
    private static readonly Dictionary<Type, IReadOnlyList<EnvelopeField>> Registered = [];

    /// <summary>
    /// Emits a message named <paramref name="protoName"/> with <paramref name="values"/> as fields
    /// 1..n. <paramref name="clrName"/> must be unique in the process (it names the CLR type).
    /// </summary>
    public static IReadOnlyList<EnvelopeField> Emit(string clrName, string protoName, IReadOnlyList<(string Name, Type Type)> values)
    {
        lock (Gate)
        {
            var builder = Module.DefineType(clrName, TypeAttributes.Public | TypeAttributes.Sealed | TypeAttributes.Class);
            foreach (var (name, type) in values)
            {
                builder.DefineField(name, type, FieldAttributes.Public);
            }

            builder.DefineDefaultConstructor(MethodAttributes.Public);
            return Configure(builder.CreateType(), protoName, [.. values.Select(v => v.Name)]);
        }
    }

    /// <summary>
    /// Registers a compiled envelope (the fast binding's generated code declares its own) exactly as
    /// <see cref="Emit"/> registers an emitted one: <paramref name="fieldNames"/> as fields 1..n, so its
    /// bytes are the emitted envelope's. Once per type; later calls return the same fields.
    /// </summary>
    public static IReadOnlyList<EnvelopeField> Register(Type envelope, IReadOnlyList<string> fieldNames)
    {
        ArgumentNullException.ThrowIfNull(envelope);
        ArgumentNullException.ThrowIfNull(fieldNames);
        lock (Gate)
        {
            return Registered.TryGetValue(envelope, out var known) ? known : Registered[envelope] = Configure(envelope, protoName: null, fieldNames);
        }
    }

    private static List<EnvelopeField> Configure(Type envelope, string? protoName, IReadOnlyList<string> fieldNames)
    {
        var meta = ProtobufModel.Model.Add(envelope, applyDefaultBehaviour: false);
        if (protoName is not null)
        {
            meta.Name = protoName;
        }

        var fields = new List<EnvelopeField>(fieldNames.Count);
        for (var i = 0; i < fieldNames.Count; i++)
        {
            var field = envelope.GetField(fieldNames[i]) ?? throw new ArgumentException($"{envelope} has no public field {fieldNames[i]}.", nameof(fieldNames));
            meta.AddField(i + 1, field.Name);
            fields.Add(new EnvelopeField(field, i + 1));
        }

        return fields;
    }
}
