using System.Net;
using System.Net.Http.Headers;
using RpcCompare.Bindings.Grpc.Tcp;
using RpcCompare.Bindings.Grpc.Uds;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Grpc.Tests;

/// <summary>
/// What Kestrel and gRPC for .NET do with input no gRPC client would send, on the TCP port and the
/// Unix socket. Each test runs a well-behaved client of the same binding throughout.
/// </summary>
public sealed class GrpcBadInputTests : IAsyncLifetime
{
    private InProcessHost _host = null!;

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync();

    public async Task DisposeAsync() => await _host.DisposeAsync();

    public static TheoryData<string> Bindings() => [BindingNames.GrpcTcp, BindingNames.GrpcUds];

    [Theory]
    [MemberData(nameof(Bindings))]
    public async Task RandomBytes_ConnectionIsClosed_AndOthersAreServed(string binding)
    {
        var steady = StartSteadyClient(binding);

        Assert.True(await RawSocket.GarbageIsRejectedAsync(_host.Address(binding)), "the server kept a connection open after garbage");
        Assert.True(await steady.StopAsync() > 0);
    }

    [Theory]
    [MemberData(nameof(Bindings))]
    public async Task TruncatedPreface_ThenDropped_OthersAreServed(string binding)
    {
        var steady = StartSteadyClient(binding);
        await using (var raw = await RawSocket.ConnectAsync(_host.Address(binding)))
        {
            await raw.SendAsync("PRI * HTTP/2.0\r\n"u8.ToArray());
            await steady.ServedMoreAsync(5);
            raw.Abort();
        }

        Assert.True(await steady.StopAsync() > 0);
    }

    [Theory]
    [MemberData(nameof(Bindings))]
    public async Task MessageWhoseLengthPrefixClaims2GB_GetsResourceExhausted_AndOthersAreServed(string binding)
    {
        var steady = StartSteadyClient(binding);
        using var http = new HttpClient(Handler(binding));
        using var request = new HttpRequestMessage(HttpMethod.Post, $"{BaseUrl(binding)}/{ServiceNames.PayloadService}/EchoBytes")
        {
            Version = HttpVersion.Version20,
            VersionPolicy = HttpVersionPolicy.RequestVersionExact,
            // gRPC framing: not compressed, length 0x7FFFFFFF, then a few bytes of a message that never ends.
            Content = new ByteArrayContent([0, 0x7F, 0xFF, 0xFF, 0xFF, 0x0A, 0x03, 1, 2, 3]),
        };
        request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/grpc");
        request.Headers.TE.Add(new TransferCodingWithQualityHeaderValue("trailers"));

        using var response = await http.SendAsync(request).Bounded();
        await response.Content.ReadAsByteArrayAsync().Bounded();
        var status = response.TrailingHeaders.TryGetValues("grpc-status", out var trailer) ? trailer.Single()
            : response.Headers.GetValues("grpc-status").Single();

        Assert.Equal(((int)global::Grpc.Core.StatusCode.ResourceExhausted).ToString(System.Globalization.CultureInfo.InvariantCulture), status);
        Assert.True(await steady.StopAsync() > 0);
    }

    private SteadyClient StartSteadyClient(string binding)
    {
        global::RpcCompare.Bindings.Grpc.Client.GrpcClientProvider provider = binding == BindingNames.GrpcUds ? new GrpcUdsClientProvider() : new GrpcTcpClientProvider();
        return SteadyClient.Start(() => provider.Create<ICallShapeService>(_host.Address(binding)));
    }

    private string BaseUrl(string binding) => binding == BindingNames.GrpcUds ? "http://localhost" : _host.Address(binding);

    private SocketsHttpHandler Handler(string binding) =>
        binding == BindingNames.GrpcUds ? new SocketsHttpHandler().ConnectingTo(_host.Address(binding)) : new SocketsHttpHandler();
}
