using System.Buffers;
using System.Reflection;
using System.Runtime.Serialization;
using ProtoBuf;
using ProtoBuf.Meta;
using RpcCompare.Description.DataContracts;

namespace RpcCompare.Protobuf.Messages;

/// <summary>
/// The protobuf-net type model every protobuf binding (gRPC, fast) writes its messages with, so one
/// operation's message is the same bytes on each. Data contracts
/// protobuf-net already understands (a [ProtoContract], or a [DataContract] whose members all carry
/// distinct Orders of 1 or more and whose known types are [ProtoInclude]d) keep protobuf-net's own
/// reading of their attributes, so the product's messages and every existing .proto client keep
/// their wire. Any other data type (unordered members, plain classes, known types protobuf was not
/// told about) is configured here from <see cref="DataContractLayout"/>'s field numbers, and known
/// subtypes get field numbers from 100 up (see <see cref="SubtypeNumbers"/>).
/// </summary>
public static class ProtobufModel
{
    /// <summary>Where known subtypes start when a level's members leave room (protobuf's usual habit for [ProtoInclude]).</summary>
    private const int FirstSubtypeNumber = 100;

    private static readonly object Gate = new();

    // The types this class configured or left to protobuf-net (RuntimeTypeModel.IsDefined cannot
    // tell: it adds a type, with protobuf-net's own reading, when it is not there yet).
    private static readonly HashSet<Type> Decided = [];

    /// <summary>The one model: a type is configured once per process, whichever contract reaches it first.</summary>
    public static RuntimeTypeModel Model { get; } = CreateModel();

    /// <summary>
    /// Configures every data type reachable from <paramref name="roots"/> that protobuf-net would
    /// not read as DataContractSerializer does, once per process: give it a whole contract's types
    /// and known types at once, since a type's known subtypes are fixed when it is configured.
    /// Throws <see cref="InvalidDataContractException"/> where DataContractSerializer would refuse the type.
    /// </summary>
    public static void Configure(IEnumerable<Type> roots, IReadOnlyList<Type> knownTypes)
    {
        var reached = DataContractLayout.Reachable(roots.Concat(knownTypes));
        var subtypes = Subtypes(reached, knownTypes);
        lock (Gate)
        {
            // Two passes: every type is added before any subtype link is made, because AddSubType
            // adds a derived type it does not know yet with protobuf-net's own attribute reading, and
            // its fields would then be added twice (duplicate field numbers at the first call).
            var configured = reached.Where(t => Decided.Add(t.Type) && NeedsConfiguring(t, subtypes))
                .Select(type => (Type: type, Meta: Model.Add(type.Type, applyDefaultBehaviour: false)))
                .ToList();
            foreach (var (type, meta) in configured)
            {
                meta.Name = type.Name;
                // DataContractSerializer runs no constructor either: a member the wire leaves out
                // (protobuf leaves out zeros and false) reads as the CLR default, not as whatever the
                // constructor would have set; collections read empty (EmptyCollections).
                if (!type.Type.IsValueType)
                {
                    meta.SetFactory(EmptyCollections.FactoryFor(type.Type));
                }

                foreach (var member in type.Members)
                {
                    var field = meta.AddField(member.FieldNumber, member.Member.Name);
                    field.Name = member.Name;
                    field.IsRequired = member.IsRequired;
                }
            }

            foreach (var (type, meta) in configured)
            {
                foreach (var (number, subtype) in SubtypeNumbers(type, subtypes))
                {
                    meta.AddSubType(number, subtype);
                }
            }
        }
    }

    /// <summary>Serializes a fault's detail for a trailer.</summary>
    public static byte[] ToBytes(object detail)
    {
        var buffer = new ArrayBufferWriter<byte>();
        Model.Serialize(buffer, detail);
        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>Reads a fault's detail from a trailer.</summary>
    public static object FromBytes(Type type, byte[] bytes) => Model.Deserialize(type, bytes.AsSpan());

    private static RuntimeTypeModel CreateModel()
    {
        var model = RuntimeTypeModel.Create("RpcCompare.Protobuf");
        model.AutoCompile = true;
        return model;
    }

    /// <summary>True when protobuf-net's own attribute reading would miss members or subtypes.</summary>
    private static bool NeedsConfiguring(DataTypeDescription type, ILookup<Type, Type> subtypes)
    {
        if (type.Type.IsDefined(typeof(ProtoContractAttribute), inherit: false))
        {
            return false;
        }

        var included = type.Type.GetCustomAttributes<ProtoIncludeAttribute>(inherit: false).Select(i => i.KnownType).ToHashSet();
        return type.Kind == DataTypeKind.Poco
            || !type.IsNumberedByOrder
            || subtypes[type.Type].Any(s => !included.Contains(s))
            || (type.BaseType is { } baseType && NeedsConfiguring(DataContractLayout.Of(baseType), subtypes));
    }

    /// <summary>
    /// Parent to direct subtype, for every data type reached and every known type (declared on a
    /// data type or on the operation): each link of its chain of data base types.
    /// </summary>
    private static ILookup<Type, Type> Subtypes(IReadOnlyList<DataTypeDescription> reached, IReadOnlyList<Type> knownTypes)
    {
        var links = new HashSet<(Type Parent, Type Child)>();
        // protobuf writes a derived type's members nested in its base's message: every data type
        // with a data base type is that base's subtype, known type or not.
        foreach (var known in reached.SelectMany(t => t.KnownTypes).Concat(knownTypes).Concat(reached.Select(t => t.Type)))
        {
            for (var child = known; child.BaseType is { } parent && DataContractLayout.IsDataType(parent); child = parent)
            {
                links.Add((parent, child));
            }
        }

        return links.ToLookup(l => l.Parent, l => l.Child);
    }

    /// <summary>
    /// Field numbers of a type's direct subtypes: a [ProtoInclude] keeps its own; the others follow,
    /// ordered by data contract name, from 100 (or after the level's last member or include, if higher).
    /// </summary>
    private static IEnumerable<(int Number, Type Subtype)> SubtypeNumbers(DataTypeDescription type, ILookup<Type, Type> subtypes)
    {
        var included = type.Type.GetCustomAttributes<ProtoIncludeAttribute>(inherit: false).ToDictionary(i => i.KnownType!, i => i.Tag);
        var next = new[] { FirstSubtypeNumber - 1 }.Concat(type.Members.Select(m => m.FieldNumber)).Concat(included.Values).Max() + 1;
        foreach (var (subtype, tag) in included)
        {
            yield return (tag, subtype);
        }

        foreach (var subtype in subtypes[type.Type].Where(s => !included.ContainsKey(s)).OrderBy(s => DataContractLayout.Of(s).Name, StringComparer.Ordinal).ThenBy(s => s.FullName, StringComparer.Ordinal))
        {
            yield return (next++, subtype);
        }
    }
}
