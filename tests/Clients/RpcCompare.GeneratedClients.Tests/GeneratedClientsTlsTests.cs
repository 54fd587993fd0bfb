using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.GeneratedClients.Tests.Grpc;
using RpcCompare.GeneratedClients.Tests.Wcf;
using RpcCompare.Testing;

namespace RpcCompare.GeneratedClients.Tests;

/// <summary>
/// The generated C# clients (svcutil's from the WSDL, Grpc.Tools' from the .proto) against a host
/// with TLS on, trusting the certificate the host writes beside its endpoints file, as a team
/// would: every parity call gets what rpcc's client gets over TLS, and a client trusting another
/// certificate is refused before any call is made.
/// </summary>
public sealed class GeneratedClientsTlsTests : IAsyncLifetime
{
    private static readonly string[] s_bindings = [BindingNames.WcfHttp, BindingNames.WcfNetTcp, BindingNames.GrpcTcp];
    private readonly TemporaryDirectory _state = new();
    private InProcessHost _host = null!;
    private ServerCertificate _certificate = null!;

    public static TheoryData<string, string> Cases => HostFixture.Cases(s_bindings);

    public static TheoryData<string> Bindings() => [.. s_bindings];

    public async Task InitializeAsync()
    {
        _certificate = ServerCertificate.Load(new TlsOptions { Enabled = true }, _state.FullPath, ["localhost", "127.0.0.1", "::1"]);
        _host = await InProcessHost.StartAsync(bindings: s_bindings,
            configureServices: services => services.AddSingleton(new TransportSecurity(_certificate, allowInsecure: false)));
    }

    public async Task DisposeAsync()
    {
        await _host.DisposeAsync();
        _state.Dispose();
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task GeneratedClient_OverTls_GetsWhatRpccGets(string binding, string call)
    {
        var parity = HostFixture.Call(call);
        await using var rpcc = new RpccClient(binding, _host.Address(binding), new ClientTlsOptions { ServerCertificateThumbprint = _certificate.Thumbprint });
        var expected = await ParityCalls.RunReferenceAsync(rpcc, parity).Bounded();
        var generated = Connect(binding, _certificate.Certificate);
        try
        {
            var actual = await ParityCalls.RunAsync(generated, parity).Bounded();
            Assert.True(JsonNode.DeepEquals(expected, actual), $"{call} over {binding}/tls: rpcc's client got {expected.ToJsonString()}, the generated client got {actual.ToJsonString()}.");
        }
        finally
        {
            await DisposeAsync(generated);
        }
    }

    [Theory]
    [MemberData(nameof(Bindings))]
    public async Task AGeneratedClientTrustingAnotherCertificate_IsNotServed(string binding)
    {
        using var other = new TemporaryDirectory();
        var stranger = ServerCertificate.Load(new TlsOptions { Enabled = true }, other.FullPath, ["localhost"]).Certificate;
        var generated = Connect(binding, stranger);
        try
        {
            await Assert.ThrowsAnyAsync<Exception>(() => generated.PingAsync().Bounded());
        }
        finally
        {
            await DisposeAsync(generated);
        }
    }

    private IParityClient Connect(string binding, System.Security.Cryptography.X509Certificates.X509Certificate2 trusted)
    {
        var address = _host.Address(binding);
        Assert.StartsWith(binding == BindingNames.WcfNetTcp ? "net.tcp://" : "https://", address, StringComparison.Ordinal);
        return binding switch
        {
            BindingNames.WcfHttp => GeneratedWcfClient.OverHttps(address, trusted),
            BindingNames.WcfNetTcp => GeneratedWcfClient.OverNetTcpTls(address, trusted),
            _ => GeneratedGrpcClient.OverTls(address, trusted),
        };
    }

    private static async ValueTask DisposeAsync(IParityClient client)
    {
        switch (client)
        {
            case IAsyncDisposable asyncDisposable:
                await asyncDisposable.DisposeAsync();
                break;
            case IDisposable disposable:
                disposable.Dispose();
                break;
        }
    }
}
