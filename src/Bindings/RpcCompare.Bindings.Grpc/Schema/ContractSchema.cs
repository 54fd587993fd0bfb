using System.Text;
using System.Text.RegularExpressions;
using Grpc.Core;
using ProtoBuf.Meta;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Grpc.Mapping;
using RpcCompare.Protobuf;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Grpc.Schema;

/// <summary>One .proto file of the gRPC wire: its name (e.g. <c>rpccompare.v1.proto</c>), package and text.</summary>
public sealed record ProtoFile(string Name, string Package, string Text);

/// <summary>
/// The one description of what the grpc-* bindings read and write: proto3 files generated from the
/// served [ServiceContract] interfaces, one per package. The exported clients/proto file, the
/// descriptors server reflection serves (<see cref="ServedDescriptors"/>) and the messages the host
/// reads all come from here, so a client built from any of them sends what the host expects.
/// </summary>
public static partial class ContractSchema
{
    /// <summary>The files describing <paramref name="contracts"/>, in package order.</summary>
    /// <exception cref="ContractNotCarriedException">A contract has operations the gRPC bindings do not carry.</exception>
    public static IReadOnlyList<ProtoFile> Generate(IEnumerable<Type> contracts)
    {
        ArgumentNullException.ThrowIfNull(contracts);
        var byPackage = contracts.Distinct()
            .Select(GrpcContractMap.For)
            .GroupBy(map => ProtoNames.PackageOf(map.ServiceName), StringComparer.Ordinal)
            .OrderBy(g => g.Key, StringComparer.Ordinal);
        var files = new List<ProtoFile>();
        foreach (var package in byPackage)
        {
            GrpcContractMap[] maps = [.. package];
            if (maps.SelectMany(m => GrpcCarryRules.Instance.Check("grpc", m.Description.ContractType)).ToArray() is { Length: > 0 } refusals)
            {
                throw new ContractNotCarriedException(refusals);
            }

            var options = new SchemaGenerationOptions { Syntax = ProtoSyntax.Proto3, Package = package.Key.Length > 0 ? package.Key : null };
            foreach (var map in maps)
            {
                var service = new Service { Name = map.ServiceName[(map.ServiceName.LastIndexOf('.') + 1)..] };
                // By name, as protobuf-net.Grpc's generator listed them: the exported file did not change when the binding did.
                foreach (var operation in map.Operations.OrderBy(o => o.Name, StringComparer.Ordinal))
                {
                    service.Methods.Add(new ServiceMethod
                    {
                        Name = operation.Name,
                        InputType = SchemaType(operation.Request.WireType),
                        OutputType = SchemaType(operation.Reply.WireType),
                        ClientStreaming = operation.MethodType is MethodType.ClientStreaming or MethodType.DuplexStreaming,
                        ServerStreaming = operation.MethodType is MethodType.ServerStreaming or MethodType.DuplexStreaming,
                    });
                }

                options.Services.Add(service);
            }

            var messages = maps.SelectMany(m => m.Operations).SelectMany(o => new[] { o.Request.WireType, o.Reply.WireType }).Where(t => t != typeof(EmptyMessage));
            var text = WithExplicitPresence(ProtobufModel.Model.GetSchema(options), PresenceFields(messages));
            var name = package.Key.Length > 0 ? $"{package.Key}.proto" : $"{maps[0].Description.ContractType.Name}.proto";
            // One line ending everywhere: the staleness test compares text.
            files.Add(new ProtoFile(name, package.Key, text.ReplaceLineEndings("\n")));
        }

        return files;
    }

    private static Type SchemaType(Type message) => message == typeof(EmptyMessage) ? typeof(ProtoBuf.WellKnownTypes.Empty) : message;

    /// <summary>The gRPC service name of a contract (e.g. <c>rpccompare.v1.FileService</c>), as routed.</summary>
    public static string ServiceName(Type contract) => ProtoNames.ServiceName(contract);

    /// <summary>
    /// Message name to the field numbers that have explicit presence on the wire: members of a
    /// nullable scalar type (<c>long?</c>), which protobuf-net writes whenever they hold a value,
    /// 0 included, and leaves out when null.
    /// </summary>
    private static Dictionary<string, HashSet<int>> PresenceFields(IEnumerable<Type> messages)
    {
        var model = ProtobufModel.Model;
        var presence = new Dictionary<string, HashSet<int>>(StringComparer.Ordinal);
        var seen = new HashSet<Type>();
        var pending = new Stack<Type>(messages);
        while (pending.TryPop(out var type))
        {
            if (!seen.Add(type) || !model.CanSerializeContractType(type))
            {
                continue;
            }

            var meta = model[type];
            foreach (var member in meta.GetFields())
            {
                if (Nullable.GetUnderlyingType(member.MemberType) is not null)
                {
                    presence.TryAdd(meta.GetSchemaTypeName(), []);
                    presence[meta.GetSchemaTypeName()].Add(member.FieldNumber);
                }

                pending.Push(member.ItemType ?? member.MemberType);
            }
        }

        return presence;
    }

    /// <summary>
    /// Marks the presence fields <c>optional</c>. protobuf-net (3.2) writes a nullable scalar as a
    /// plain proto3 field although it tracks presence on the wire; without the mark the schema
    /// would tell a proto3 client that 0 and "not given" are the same, and such a client leaves a
    /// 0 off the wire.
    /// </summary>
    private static string WithExplicitPresence(string schema, Dictionary<string, HashSet<int>> presence)
    {
        var text = new StringBuilder(schema.Length + 64);
        HashSet<int>? fields = null;
        foreach (var line in schema.ReplaceLineEndings("\n").Split('\n'))
        {
            if (MessageStart().Match(line) is { Success: true } message)
            {
                fields = presence.GetValueOrDefault(message.Groups["name"].Value);
            }
            else if (line.StartsWith('}'))
            {
                fields = null;
            }
            else if (fields is not null && ScalarField().Match(line) is { Success: true } field
                && fields.Contains(int.Parse(field.Groups["number"].Value, System.Globalization.CultureInfo.InvariantCulture)))
            {
                text.Append(field.Groups["indent"].Value).Append("optional ").Append(line.AsSpan(field.Groups["indent"].Length)).Append('\n');
                continue;
            }

            text.Append(line).Append('\n');
        }

        return text.ToString(0, text.Length - 1);
    }

    [GeneratedRegex(@"^message (?<name>\w+) \{$")]
    private static partial Regex MessageStart();

    // A singular field: no label yet (proto3), a type, a name and a number.
    [GeneratedRegex(@"^(?<indent>\s+)(?<type>[\w.]+) (?<name>\w+) = (?<number>\d+)(?: \[[^\]]*\])?;$")]
    private static partial Regex ScalarField();
}
