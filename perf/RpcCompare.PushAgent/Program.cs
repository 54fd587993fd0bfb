using System.Text.Json;
using RpcCompare.Client;
using RpcCompare.PushAgent;

// Commands on stdin, answers on stdout (AgentMessages.cs); diagnostics on stderr. "--tls-thumbprint X":
// the host uses TLS, and its certificate is the one with that SHA-256 thumbprint.
var tls = args is ["--tls-thumbprint", var thumbprint] ? new RpcCompare.Bindings.Security.ClientTlsOptions { ServerCertificateThumbprint = thumbprint } : null;
using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { Tls = tls });
await using var broadcast = new BroadcastSubscribers(factory);
var output = Console.Out;
while (await Console.In.ReadLineAsync() is { } line)
{
    var command = JsonSerializer.Deserialize<AgentCommand>(line, AgentJson.Options)
        ?? throw new InvalidDataException($"Not a command: {line}");
    AgentEvent answer;
    try
    {
        answer = command.Command switch
        {
            "subscribe" => await broadcast.ResizeAsync(command),
            "burst" => broadcast.TakeBurst(command.Topic, command.Sequence),
            "collaborate" => await Collaboration.RunAsync(factory, command),
            "exit" => new AgentEvent("exit"),
            _ => new AgentEvent("error", Error: $"Unknown command '{command.Command}'."),
        };
    }
    catch (Exception exception)
    {
        answer = new AgentEvent("error", Error: $"{command.Command} failed: {exception.GetType().Name}: {exception.Message}");
    }

    await output.WriteLineAsync(JsonSerializer.Serialize(answer, AgentJson.Options));
    await output.FlushAsync();
    if (command.Command == "exit")
    {
        break;
    }
}

return 0;
