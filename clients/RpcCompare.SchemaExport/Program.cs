using RpcCompare.SchemaExport;

// Usage: dotnet run --project clients/RpcCompare.SchemaExport [-- CLIENTS_DIRECTORY]
// Writes clients/proto/*.proto and clients/wsdl/*.wsdl; run from the repository root.
if (args is ["-h" or "--help", ..])
{
    Console.WriteLine("Usage: dotnet run --project clients/RpcCompare.SchemaExport [-- CLIENTS_DIRECTORY]");
    Console.WriteLine("Writes the service descriptions of the contracts into CLIENTS_DIRECTORY/proto (.proto files)");
    Console.WriteLine("and CLIENTS_DIRECTORY/wsdl (one WSDL per service, served by a wcf-http binding started on");
    Console.WriteLine("a free loopback port). Default CLIENTS_DIRECTORY: clients, from the repository root.");
    return 0;
}

var clients = args.Length > 0 ? args[0] : "clients";
await WriteAllAsync(Path.Combine(clients, "proto"), ProtoSchemas.Generate());
await WriteAllAsync(Path.Combine(clients, "wsdl"), await WsdlDocuments.GenerateAsync());
return 0;

static async Task WriteAllAsync(string directory, IReadOnlyDictionary<string, string> files)
{
    Directory.CreateDirectory(directory);
    foreach (var (name, content) in files)
    {
        var path = Path.Combine(directory, name);
        await File.WriteAllTextAsync(path, content);
        Console.WriteLine($"wrote {path}");
    }
}
