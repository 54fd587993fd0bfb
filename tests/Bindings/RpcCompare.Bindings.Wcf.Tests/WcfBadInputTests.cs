using System.Net;
using System.Text;
using RpcCompare.Bindings.Wcf.Client;
using RpcCompare.Bindings.Wcf.Http;
using RpcCompare.Bindings.Wcf.NetTcp;
using RpcCompare.Bindings.Wcf.Uds;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Wcf.Tests;

/// <summary>
/// What CoreWCF does with input no WCF client would send. Each test runs a well-behaved client of
/// the same binding throughout and checks it was served during and after.
/// </summary>
public sealed class WcfBadInputTests : IAsyncLifetime
{
    private InProcessHost _host = null!;

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync();

    public async Task DisposeAsync() => await _host.DisposeAsync();

    public static TheoryData<string> FramingBindings() => [BindingNames.WcfNetTcp, BindingNames.WcfUds];

    [Theory]
    [MemberData(nameof(FramingBindings))]
    public async Task RandomBytes_ConnectionIsClosed_AndOthersAreServed(string binding)
    {
        var steady = StartSteadyClient(binding);

        Assert.True(await RawSocket.GarbageIsRejectedAsync(RawAddress(binding)), "the server kept a connection open after garbage");
        Assert.True(await steady.StopAsync() > 0);
    }

    [Theory]
    [MemberData(nameof(FramingBindings))]
    public async Task TruncatedPreamble_HeldOpen_DoesNotStopOthersBeingServed(string binding)
    {
        var steady = StartSteadyClient(binding);
        await using var raw = await RawSocket.ConnectAsync(RawAddress(binding));

        // Version 1.0, duplex mode, then a via record that promises 64 bytes and sends none.
        await raw.SendAsync([0x00, 0x01, 0x00, 0x01, 0x02, 0x02, 0x40]);
        await steady.ServedMoreAsync(20);

        Assert.True(await steady.StopAsync() > 0);
    }

    [Theory]
    [MemberData(nameof(FramingBindings))]
    public async Task ConnectionDroppedMidMessage_OthersAreServed(string binding)
    {
        var steady = StartSteadyClient(binding);
        await using (var raw = await RawSocket.ConnectAsync(RawAddress(binding)))
        {
            var via = Encoding.UTF8.GetBytes(ViaOf(binding));
            await raw.SendAsync([0x00, 0x01, 0x00, 0x01, 0x02, 0x02, (byte)via.Length, .. via, 0x03, 0x08, 0x0C]);
            // The preamble is read and answered on its own, while others are served.
            await steady.ServedMoreAsync(5);
            // A sized envelope that promises 1,000 bytes and carries 10, then a crash.
            await raw.SendAsync([0x06, 0xE8, 0x07, .. new byte[10]]);
            raw.Abort();
        }

        Assert.True(await steady.StopAsync() > 0);
    }

    [Fact]
    public async Task SoapBodyWithEntityExpansion_IsRefused_AndOthersAreServed()
    {
        var steady = StartSteadyClient(BindingNames.WcfHttp);
        using var http = new HttpClient();
        const string BillionLaughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><ReadDirectory xmlns="urn:rpccompare:v1"><request><Path>&lol3;</Path></request></ReadDirectory></s:Body></s:Envelope>
            """;
        using var content = new StringContent(BillionLaughs, Encoding.UTF8, "text/xml");
        content.Headers.Add("SOAPAction", "\"urn:rpccompare:v1/rpccompare.v1.FileService/ReadDirectory\"");

        using var response = await http.PostAsync(FileServiceUrl(), content).Bounded();
        var body = await response.Content.ReadAsStringAsync();

        Assert.False(response.IsSuccessStatusCode, $"a DTD was processed: {response.StatusCode}");
        Assert.DoesNotContain("lollollol", body, StringComparison.Ordinal);
        Assert.True(await steady.StopAsync() > 0);
    }

    [Fact]
    public async Task TwentyMegabyteBody_Gets413_AndOthersAreServed()
    {
        var steady = StartSteadyClient(BindingNames.WcfHttp);
        using var http = new HttpClient();
        using var content = new ByteArrayContent(new byte[20_000_000]);
        content.Headers.ContentType = new("text/xml") { CharSet = "utf-8" };

        using var response = await http.PostAsync(FileServiceUrl(), content).Bounded();

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        Assert.True(await steady.StopAsync() > 0);
    }

    private SteadyClient StartSteadyClient(string binding)
    {
        WcfClientProvider provider = binding switch
        {
            BindingNames.WcfNetTcp => new WcfNetTcpClientProvider(),
            BindingNames.WcfUds => new WcfUdsClientProvider(),
            _ => new WcfHttpClientProvider(),
        };
        return SteadyClient.Start(() => provider.Create<ICallShapeService>(_host.Address(binding)));
    }

    private string FileServiceUrl() => $"{_host.Address(BindingNames.WcfHttp)}/{ServiceNames.FileService}";

    /// <summary>Where a raw socket connects: the NetTcp port, or the call-shape service's own socket.</summary>
    private string RawAddress(string binding) => binding == BindingNames.WcfUds
        ? Path.Combine(_host.Address(binding), ServiceNames.CallShapeService)
        : _host.Address(binding);

    private string ViaOf(string binding) => binding == BindingNames.WcfUds
        ? "net.uds://" + RawAddress(binding)
        : $"{_host.Address(binding)}/{ServiceNames.CallShapeService}";
}
