using Google.Protobuf.Reflection;
using Grpc.Net.Client;
using Rpccompare.V1;
using RpcCompare.Bindings;
using RpcCompare.Testing;
using Reflection = Grpc.Reflection.V1;

namespace RpcCompare.GeneratedClients.Tests.Grpc;

/// <summary>
/// One description of the gRPC wire: the file server reflection serves is, message by message and
/// field by field, what protoc makes of the exported clients/proto/rpccompare.v1.proto (Grpc.Tools
/// compiled it into this test's generated client; its descriptor is embedded there).
/// </summary>
[Collection(SharedHost.Name)]
public sealed class ServedDescriptionTests(HostFixture fixture)
{
    [Fact]
    public async Task ReflectedFile_IsWhatProtocMakesOfTheExportedProto()
    {
        using var channel = GrpcChannel.ForAddress(fixture.Host.Address(BindingNames.GrpcTcp));
        var reflected = await ReflectedFileAsync(channel, "rpccompare.v1.proto");
        var exported = RpccompareV1Reflection.Descriptor.ToProto();

        // Compared line by line so that a difference names the message and field.
        Assert.Equal(Describe(exported), Describe(reflected));
        Assert.Contains("field WriteAtRequest.Offset = 3 Int64 Optional type= default='' proto3_optional=True oneof=_Offset", Describe(reflected));
    }

    /// <summary>Everything a client's code generator reads: syntax, package, imports, messages and their fields (names, numbers, types, labels, presence, defaults), services.</summary>
    private static List<string> Describe(FileDescriptorProto file)
    {
        var lines = new List<string> { $"file {file.Name} syntax={file.Syntax} package={file.Package} imports={string.Join(",", file.Dependency)}" };
        foreach (var message in file.MessageType.OrderBy(m => m.Name, StringComparer.Ordinal))
        {
            lines.Add($"message {message.Name} oneofs={string.Join(",", message.OneofDecl.Select(o => o.Name))} nested={message.NestedType.Count} enums={message.EnumType.Count}");
            lines.AddRange(message.Field.OrderBy(f => f.Number).Select(f =>
                $"field {message.Name}.{f.Name} = {f.Number} {f.Type} {f.Label} type={f.TypeName} default='{f.DefaultValue}' "
                + $"proto3_optional={f.Proto3Optional} oneof={(f.HasOneofIndex ? message.OneofDecl[f.OneofIndex].Name : "")}"));
        }

        foreach (var service in file.Service.OrderBy(s => s.Name, StringComparer.Ordinal))
        {
            lines.AddRange(service.Method.OrderBy(m => m.Name, StringComparer.Ordinal).Select(m =>
                $"rpc {service.Name}.{m.Name} ({(m.ClientStreaming ? "stream " : "")}{m.InputType}) returns ({(m.ServerStreaming ? "stream " : "")}{m.OutputType})"));
        }

        lines.Add($"enums {file.EnumType.Count}");
        return lines;
    }

    private static async Task<FileDescriptorProto> ReflectedFileAsync(GrpcChannel channel, string fileName)
    {
        var reflection = new Reflection.ServerReflection.ServerReflectionClient(channel);
        using var call = reflection.ServerReflectionInfo();
        await call.RequestStream.WriteAsync(new Reflection.ServerReflectionRequest { FileByFilename = fileName }).Bounded();
        await call.RequestStream.CompleteAsync().Bounded();
        Assert.True(await call.ResponseStream.MoveNext(CancellationToken.None).Bounded());
        var reply = call.ResponseStream.Current;
        Assert.True(reply.ErrorResponse is null, $"reflection has no file {fileName}: {reply.ErrorResponse}");
        return reply.FileDescriptorResponse.FileDescriptorProto.Select(FileDescriptorProto.Parser.ParseFrom).Single(f => f.Name == fileName);
    }
}
