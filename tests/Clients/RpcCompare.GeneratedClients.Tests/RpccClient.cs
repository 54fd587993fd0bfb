using RpcCompare.Bindings.Security;
using RpcCompare.Client;
using RpcCompare.Contracts;

namespace RpcCompare.GeneratedClients.Tests;

/// <summary>The reference side of every parity case: RpcCompare's own client, as rpcc calls it.</summary>
public sealed class RpccClient : IParityClient, IAsyncDisposable
{
    private readonly RpcClientFactory _factory;
    private readonly IFileService _files;
    private readonly IPayloadService _payloads;

    /// <param name="binding">The binding to call over.</param>
    /// <param name="address">Its address.</param>
    /// <param name="tls">How a TLS host's certificate is trusted; null for plaintext.</param>
    public RpccClient(string binding, string address, ClientTlsOptions? tls = null)
    {
        _factory = RpcClientFactory.CreateDefault(new RpcClientOptions { Tls = tls });
        _files = _factory.Create<IFileService>(binding, address);
        _payloads = _factory.Create<IPayloadService>(binding, address);
    }

    public async Task PingAsync() => await _files.PingAsync(new PingRequest());

    public async Task<IReadOnlyList<ParityEntry>> ReadDirectoryAsync(string path) =>
        [.. (await _files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = path })).Entries.Select(e => new ParityEntry(e.Name, e.Size, e.IsDirectory))];

    public async Task<ParityWrite> WriteAtAsync(string? path, long? offset, int repeat)
    {
        var request = new WriteAtRequest { Path = path, Repeat = repeat };
        if (offset is { } value)
        {
            request.Offset = value;
        }

        var reply = await _files.WriteAtAsync(request);
        return new(reply.BytesWritten, reply.Offset, reply.FileLength);
    }

    public async Task<byte[]> EchoBytesAsync(byte[] data) => (await _payloads.EchoBytesAsync(new BytesMessage { Data = data })).Data;

    public string? ErrorCodeOf(Exception exception) => (exception as RpcServiceException)?.Code.ToString();

    public async ValueTask DisposeAsync()
    {
        await RpcClientFactory.ReleaseAsync(_files);
        await RpcClientFactory.ReleaseAsync(_payloads);
        _factory.Dispose();
    }
}
