using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Testing;

namespace RpcCompare.GeneratedClients.Tests.Node;

/// <summary>
/// The Node.js clients against a host with TLS on: grpc-js over grpc-tcp and the soap client over
/// HTTPS, each trusting the host's certificate file (as the host writes it beside its endpoints
/// file), must pass the same tests as in plaintext.
/// </summary>
public sealed class NodeTlsClientTests : IAsyncLifetime
{
    private static readonly string[] s_bindings = [BindingNames.GrpcTcp, BindingNames.WcfHttp];
    private readonly TemporaryDirectory _state = new();
    private InProcessHost _host = null!;
    private ClientTlsOptions _tls = null!;

    private string CertificateFile => _state.PathFor("tls-certificate.pem");

    public async Task InitializeAsync()
    {
        var certificate = ServerCertificate.Load(new TlsOptions { Enabled = true }, _state.FullPath, ["localhost", "127.0.0.1", "::1"]);
        await File.WriteAllTextAsync(CertificateFile, certificate.Certificate.ExportCertificatePem());
        _tls = new ClientTlsOptions { ServerCertificateThumbprint = certificate.Thumbprint };
        _host = await InProcessHost.StartAsync(bindings: s_bindings,
            configureServices: services => services.AddSingleton(new TransportSecurity(certificate, allowInsecure: false)));
    }

    public async Task DisposeAsync()
    {
        await _host.DisposeAsync();
        _state.Dispose();
    }

    [Fact]
    public Task GrpcJsClient_OverTls_MatchesRpcc_AndSeesReflectionAndHealth()
    {
        Assert.StartsWith("https://", _host.Address(BindingNames.GrpcTcp), StringComparison.Ordinal);
        return NodeClientTests.RunNodeTestsAsync("test/grpc.test.mjs", ParityCalls.All.Count + 2,
            NodeClientTests.ParityFileAsync(_host.Address, [BindingNames.GrpcTcp], _tls, CertificateFile));
    }

    [Fact]
    public Task SoapClient_OverHttps_MatchesRpcc()
    {
        Assert.StartsWith("https://", _host.Address(BindingNames.WcfHttp), StringComparison.Ordinal);
        return NodeClientTests.RunNodeTestsAsync("test/soap.test.mjs", ParityCalls.All.Count,
            NodeClientTests.ParityFileAsync(_host.Address, [BindingNames.WcfHttp], _tls, CertificateFile));
    }
}
