using RpcCompare.Bindings.Grpc.Uds;
using System.Security.Cryptography.X509Certificates;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;
using Rpccompare.V1;

namespace RpcCompare.GeneratedClients.Tests.Grpc;

/// <summary>
/// The Grpc.Tools client generated from clients/proto, used as a team with only the .proto would
/// use it: a GrpcChannel, the generated stubs, RpcException with the status and trailers.
/// </summary>
public sealed class GeneratedGrpcClient : IParityClient, IDisposable
{
    private readonly GrpcChannel _channel;
    private readonly FileService.FileServiceClient _files;
    private readonly PayloadService.PayloadServiceClient _payloads;

    private GeneratedGrpcClient(GrpcChannel channel)
    {
        _channel = channel;
        _files = new FileService.FileServiceClient(channel);
        _payloads = new PayloadService.PayloadServiceClient(channel);
    }

    /// <summary>grpc-tcp: the address is the http:// base.</summary>
    public static GeneratedGrpcClient OverTcp(string address) =>
        new(GrpcChannel.ForAddress(address, new GrpcChannelOptions { MaxReceiveMessageSize = 16 * 1024 * 1024 }));

    /// <summary>
    /// grpc-tcp over TLS: the https:// address, and a handler that trusts the host's one
    /// certificate (a self-signed certificate no system store holds).
    /// </summary>
    public static GeneratedGrpcClient OverTls(string address, X509Certificate2 trusted)
    {
        var handler = new SocketsHttpHandler();
        handler.SslOptions.RemoteCertificateValidationCallback = (_, certificate, _, _) =>
            certificate is not null && certificate.GetRawCertData().AsSpan().SequenceEqual(trusted.RawDataMemory.Span);
        return new(GrpcChannel.ForAddress(address, new GrpcChannelOptions { HttpHandler = handler, MaxReceiveMessageSize = 16 * 1024 * 1024 }));
    }

    /// <summary>grpc-uds: HTTP/2 over a Unix socket, the way grpc-dotnet's documentation connects to one.</summary>
    public static GeneratedGrpcClient OverUnixSocket(string socketPath)
    {
        var handler = new SocketsHttpHandler().ConnectingTo(socketPath);
        return new(GrpcChannel.ForAddress("http://localhost", new GrpcChannelOptions { HttpHandler = handler, MaxReceiveMessageSize = 16 * 1024 * 1024 }));
    }

    public async Task PingAsync() => await _files.PingAsync(new PingRequest());

    public async Task<IReadOnlyList<ParityEntry>> ReadDirectoryAsync(string path) =>
        [.. (await _files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = path })).Entries.Select(e => new ParityEntry(e.Name, e.Size, e.IsDirectory))];

    public async Task<ParityWrite> WriteAtAsync(string? path, long? offset, int repeat)
    {
        var request = new WriteAtRequest { Repeat = repeat };
        if (path is not null)
        {
            request.Path = path;
        }

        if (offset is { } value)
        {
            request.Offset = value;
        }

        var reply = await _files.WriteAtAsync(request);
        return new(reply.BytesWritten, reply.Offset, reply.FileLength);
    }

    public async Task<byte[]> EchoBytesAsync(byte[] data) =>
        (await _payloads.EchoBytesAsync(new BytesMessage { Data = ByteString.CopyFrom(data) })).Data.ToByteArray();

    /// <summary>The server names the refusal in the rpccompare-error-code trailer, beside a matching status code.</summary>
    public string? ErrorCodeOf(Exception exception) =>
        exception is RpcException rpc ? rpc.Trailers.GetValue("rpccompare-error-code") : null;

    public void Dispose() => _channel.Dispose();
}
