using System.Text.Json;

namespace RpcCompare.Bindings;

/// <summary>
/// The JSON object a host writes once every listener is ready: binding name to address, and, when
/// its TCP bindings use TLS, "tls-certificate-sha256" with the thumbprint clients pin. Tools wait
/// for it to appear instead of polling ports.
/// </summary>
public static class EndpointsFile
{
    /// <summary>The key of the certificate's thumbprint: no binding is named so.</summary>
    public const string CertificateKey = "tls-certificate-sha256";

    /// <summary>
    /// Where a host with TLS on writes its certificate (PEM, public part only) beside the endpoints
    /// file, for clients that trust a certificate file rather than a thumbprint (Node.js).
    /// </summary>
    public static string CertificatePathBeside(string endpointsFile) =>
        Path.Combine(Path.GetDirectoryName(Path.GetFullPath(endpointsFile))!, "tls-certificate.pem");

    private static readonly JsonSerializerOptions s_options = new() { WriteIndented = true };

    /// <summary>Writes atomically: a reader never sees a half-written file.</summary>
    public static async Task WriteAsync(string path, HostEndpoints endpoints, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        var entries = new Dictionary<string, string>(endpoints.Addresses, StringComparer.Ordinal);
        if (endpoints.CertificateThumbprint is { } thumbprint)
        {
            entries[CertificateKey] = thumbprint;
        }

        var temporary = path + ".tmp";
        await using (var stream = File.Create(temporary))
        {
            await JsonSerializer.SerializeAsync(stream, entries, s_options, cancellationToken);
        }

        File.Move(temporary, path, overwrite: true);
    }

    public static HostEndpoints Read(string path)
    {
        Dictionary<string, string> entries;
        using (var stream = File.OpenRead(path))
        {
            entries = JsonSerializer.Deserialize<Dictionary<string, string>>(stream)
                ?? throw new InvalidDataException($"Endpoints file '{path}' does not hold a JSON object.");
        }

        entries.Remove(CertificateKey, out var thumbprint);
        return new HostEndpoints(entries, thumbprint);
    }

    /// <summary>Waits until the file exists and parses, or the timeout passes.</summary>
    public static async Task<HostEndpoints> WaitAsync(string path, TimeSpan timeout, CancellationToken cancellationToken = default)
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
