using RpcCompare.SchemaExport;

// Usage: dotnet run --project clients/RpcCompare.SchemaExport [-- OUTPUT_DIRECTORY]
// Writes clients/proto/*.proto (or into OUTPUT_DIRECTORY); run from the repository root.
if (args is ["-h" or "--help", ..])
{
    Console.WriteLine("Usage: dotnet run --project clients/RpcCompare.SchemaExport [-- OUTPUT_DIRECTORY]");
    Console.WriteLine("Writes the .proto files of the contracts (default: clients/proto, from the repository root).");
    return 0;
}

var output = args.Length > 0 ? args[0] : Path.Combine("clients", "proto");
Directory.CreateDirectory(output);
foreach (var (name, content) in ProtoSchemas.Generate())
{
    var path = Path.Combine(output, name);
    await File.WriteAllTextAsync(path, content);
    Console.WriteLine($"wrote {path}");
}

return 0;
