using System.Collections.Concurrent;
using System.Net;
using System.Text;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests;

/// <summary>
/// Accepts OTLP/HTTP posts on 127.0.0.1, as a collector would (none is installed here), and keeps each
/// trace post's body: as text (protobuf strings read as they are) and as bytes (ids are raw bytes).
/// </summary>
internal sealed class OtlpHttpReceiver : IDisposable
{
    private readonly HttpListener _listener = new();
    private readonly ConcurrentQueue<byte[]> _traceBodies = new();

    public OtlpHttpReceiver()
    {
        var port = FreePort.OnLoopback();
        Address = $"http://127.0.0.1:{port}";
        _listener.Prefixes.Add(Address + "/");
        _listener.Start();
        _ = AcceptAsync();
    }

    public string Address { get; }

    /// <summary>Each trace post's body as UTF-8 text.</summary>
    public IReadOnlyList<string> Traces => [.. _traceBodies.Select(Encoding.UTF8.GetString)];

    /// <summary>Whether one trace post holds both <paramref name="bytes"/> (an id, say) and the UTF-8 of <paramref name="text"/>.</summary>
    public bool AnyTracePostHolds(byte[] bytes, string text)
    {
        var utf8 = Encoding.UTF8.GetBytes(text);
        return _traceBodies.Any(body => body.AsSpan().IndexOf(bytes) >= 0 && body.AsSpan().IndexOf(utf8) >= 0);
    }

    public void Dispose() => _listener.Close();

    private async Task AcceptAsync()
    {
        while (_listener.IsListening)
        {
            HttpListenerContext context;
            try
            {
                context = await _listener.GetContextAsync();
            }
            catch (Exception e) when (e is HttpListenerException or ObjectDisposedException)
            {
                return;
            }

            using (var body = new MemoryStream())
            {
                await context.Request.InputStream.CopyToAsync(body);
                if (context.Request.Url?.AbsolutePath == "/v1/traces")
                {
                    _traceBodies.Enqueue(body.ToArray());
                }
            }

            // An empty ExportTraceServiceResponse: success.
            context.Response.StatusCode = 200;
            context.Response.ContentType = "application/x-protobuf";
            context.Response.Close();
        }
    }
}
