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
            var envelope = builder.CreateType();
            var meta = ProtobufModel.Model.Add(envelope, applyDefaultBehaviour: false);
            meta.Name = protoName;
            var fields = new List<EnvelopeField>(values.Count);
            for (var i = 0; i < values.Count; i++)
            {
                var field = envelope.GetField(values[i].Name)!;
                meta.AddField(i + 1, field.Name);
                fields.Add(new EnvelopeField(field, i + 1));
            }

            return fields;
        }
    }
}
