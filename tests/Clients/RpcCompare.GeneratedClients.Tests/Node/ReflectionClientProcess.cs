using System.Diagnostics;
using System.Text.Json.Nodes;
using RpcCompare.Testing;

namespace RpcCompare.GeneratedClients.Tests.Node;

/// <summary>
/// clients/node/reflect-call.mjs, kept running: a gRPC client built only from the host's server
/// reflection. <see cref="Offered"/> is what reflection offered it; <see cref="CallAsync"/> sends
/// one call and returns its answer line ({"reply"} or {"error"}).
/// </summary>
internal sealed class ReflectionClientProcess : IAsyncDisposable
{
    private readonly Process _process;

    private ReflectionClientProcess(Process process, JsonObject offered)
    {
        _process = process;
        Offered = offered;
    }

    /// <summary>{"services": [...], "methods": {service: [{name, requestType, ...}]}}.</summary>
    public JsonObject Offered { get; }

    public static async Task<ReflectionClientProcess> StartAsync(string address)
    {
        await NodeModules.EnsureInstalledAsync();
        var start = new ProcessStartInfo("node", ["reflect-call.mjs", address])
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
            return new ReflectionClientProcess(process, (JsonObject)await ReadLineAsync(process));
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
            throw new InvalidOperationException($"reflect-call.mjs ended without an answer:\n{error}");
        }

        return JsonNode.Parse(line) ?? throw new InvalidOperationException($"reflect-call.mjs printed '{line}'");
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
