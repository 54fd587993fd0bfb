extern alias ProtobufNetReflection;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using ParsedFiles = ProtobufNetReflection::Google.Protobuf.Reflection.FileDescriptorSet;

namespace RpcCompare.Bindings.Grpc.Schema;

/// <summary>
/// The <see cref="ContractSchema"/> files as Google.Protobuf descriptors, for the standard server
/// reflection service: parsed from the very text the project exports, so what reflection says
/// and what clients/proto says cannot drift apart.
/// </summary>
public static class ServedDescriptors
{
    /// <summary>Builds the descriptors of <paramref name="files"/> and of the well-known files they import.</summary>
    /// <exception cref="InvalidOperationException">A file does not parse or does not link (e.g. one message defined in two packages).</exception>
    public static IReadOnlyList<FileDescriptor> Build(IReadOnlyList<ProtoFile> files)
    {
        ArgumentNullException.ThrowIfNull(files);
        var parsed = new ParsedFiles();
        foreach (var file in files)
        {
            parsed.Add(file.Name, includeInOutput: true, new StringReader(file.Text));
        }

        parsed.Process();
        if (parsed.GetErrors() is { Length: > 0 } errors)
        {
            throw new InvalidOperationException($"The generated .proto files do not parse: {string.Join("; ", errors.Select(e => e.ToString()))}");
        }

        // Imports (google/protobuf/empty.proto) come first: a file is built after its dependencies.
        var ordered = parsed.Files.Where(f => !f.IncludeInOutput).Concat(parsed.Files.Where(f => f.IncludeInOutput));
        var bytes = ordered.Select(f =>
        {
            using var stream = new MemoryStream();
            ProtoBuf.Serializer.Serialize(stream, f);
            return ByteString.CopyFrom(stream.ToArray());
        });
        try
        {
            var built = FileDescriptor.BuildFromByteStrings(bytes);
            return [.. built.Where(d => files.Any(f => f.Name == d.Name))];
        }
        catch (DescriptorValidationException e)
        {
            throw new InvalidOperationException($"The generated .proto files do not link: {e.Message}", e);
        }
    }
}
