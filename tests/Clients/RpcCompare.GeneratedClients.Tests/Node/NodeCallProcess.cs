using System.Diagnostics;
using System.Text.Json.Nodes;
using RpcCompare.Testing;

namespace RpcCompare.GeneratedClients.Tests.Node;

/// <summary>
/// One of clients/node's call drivers, kept running: reflect-call.mjs (a gRPC client built only
/// from the host's server reflection) or soap-call.mjs (SOAP clients built from the WSDL).
/// <see cref="Offered"/> is its first line (what it found); <see cref="CallAsync"/> sends one call
/// and returns its answer line ({"reply"} or {"error"}).
/// </summary>
internal sealed class NodeCallProcess : IAsyncDisposable
{
    private readonly Process _process;

    private NodeCallProcess(Process process, JsonObject offered)
    {
        _process = process;
        Offered = offered;
    }

    /// <summary>reflect-call.mjs: {"services": [...], "methods": {service: [{name, requestType, ...}]}}; soap-call.mjs: {"ready": true}.</summary>
    public JsonObject Offered { get; }

    public static async Task<NodeCallProcess> StartAsync(string script, string address)
    {
        await NodeModules.EnsureInstalledAsync();
        var start = new ProcessStartInfo("node", [script, address])
        {
            WorkingDirectory = NodeModules.Directory,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        var process = Process.Start(start) ?? throw new InvalidOperationException("node did not start");
        try
        {
            return new NodeCallProcess(process, (JsonObject)await ReadLineAsync(process));
        }
        catch
        {
            process.Kill(entireProcessTree: true);
            process.Dispose();
            throw;
        }
    }

    public async Task<JsonObject> CallAsync(string service, string method, JsonObject request)
    {
        var line = new JsonObject { ["service"] = service, ["method"] = method, ["request"] = request.DeepClone() };
        await _process.StandardInput.WriteLineAsync(line.ToJsonString());
        await _process.StandardInput.FlushAsync();
        return (JsonObject)await ReadLineAsync(_process);
    }

    private static async Task<JsonNode> ReadLineAsync(Process process)
    {
        var line = await process.StandardOutput.ReadLineAsync().Bounded();
        if (line is null)
        {
            var error = await process.StandardError.ReadToEndAsync().Bounded();
            throw new InvalidOperationException($"{process.StartInfo.ArgumentList[0]} ended without an answer:\n{error}");
        }

        return JsonNode.Parse(line) ?? throw new InvalidOperationException($"{process.StartInfo.ArgumentList[0]} printed '{line}'");
    }

    public async ValueTask DisposeAsync()
    {
        _process.StandardInput.Close();
        if (!_process.WaitForExit(TimeSpan.FromSeconds(10)))
        {
            _process.Kill(entireProcessTree: true);
        }

        await _process.WaitForExitAsync();
        _process.Dispose();
    }
}
