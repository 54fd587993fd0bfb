using System.Text.Json;

namespace RpcCompare.Bindings;

/// <summary>
/// The JSON object a host writes once every listener is ready: binding name to address.
/// Tools wait for it to appear instead of polling ports.
/// </summary>
public static class EndpointsFile
{
    private static readonly JsonSerializerOptions s_options = new() { WriteIndented = true };

    /// <summary>Writes atomically: a reader never sees a half-written file.</summary>
    public static async Task WriteAsync(string path, IReadOnlyDictionary<string, string> endpoints, CancellationToken cancellationToken = default)
    {
        var temporary = path + ".tmp";
        await using (var stream = File.Create(temporary))
        {
            await JsonSerializer.SerializeAsync(stream, endpoints, s_options, cancellationToken);
        }

        File.Move(temporary, path, overwrite: true);
    }

    public static IReadOnlyDictionary<string, string> Read(string path)
    {
        using var stream = File.OpenRead(path);
        return JsonSerializer.Deserialize<Dictionary<string, string>>(stream)
            ?? throw new InvalidDataException($"Endpoints file '{path}' does not hold a JSON object.");
    }

    /// <summary>Waits until the file exists and parses, or the timeout passes.</summary>
    public static async Task<IReadOnlyDictionary<string, string>> WaitAsync(string path, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        using var timeoutSource = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeoutSource.CancelAfter(timeout);
        while (true)
        {
            if (File.Exists(path))
            {
                return Read(path);
            }

            try
            {
                await Task.Delay(50, timeoutSource.Token);
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                throw new TimeoutException($"No endpoints file appeared at '{path}' within {timeout.TotalSeconds:0.#} s.");
            }
        }
    }
}
