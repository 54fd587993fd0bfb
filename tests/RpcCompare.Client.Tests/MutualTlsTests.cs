using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Client.Tests.Push;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// Mutual TLS on the four TCP bindings: a client certificate on the host's thumbprint list, or
/// issued by its authority, is served; another certificate, or none, is refused, and the host's
/// summary line names the certificate it refused.
/// </summary>
[Collection(PushTestsRunAlone.Name)]
public sealed class MutualTlsTests : IClassFixture<MutualTlsTests.MutualTlsHost>
{
    private readonly MutualTlsHost _fixture;

    public MutualTlsTests(MutualTlsHost fixture)
    {
        _fixture = fixture;
    }

    public static TheoryData<string> TlsBindings() => [BindingNames.WcfNetTcp, BindingNames.WcfHttp, BindingNames.GrpcTcp, BindingNames.FastTcp];

    // wcf-nettcp's TLS is WCF's own: a certificate it refuses ends the handshake, which its client
    // reports as a reset (the host's log still names the certificate).
    public static TheoryData<string> BindingsThatAnswerARefusal() => [BindingNames.WcfHttp, BindingNames.GrpcTcp, BindingNames.FastTcp];

    [Theory]
    [MemberData(nameof(TlsBindings))]
    public async Task ACertificateOnTheList_IsServed(string binding)
    {
        Assert.Equal(42, await IncrementAsync(binding, _fixture.Listed));
    }

    [Theory]
    [MemberData(nameof(TlsBindings))]
    public async Task ACertificateIssuedByTheAuthority_IsServed(string binding)
    {
        Assert.Equal(42, await IncrementAsync(binding, _fixture.Issued));
    }

    [Theory]
    [MemberData(nameof(TlsBindings))]
    public async Task AnotherCertificate_IsRefused_AndTheHostNamesIt(string binding)
    {
        await Assert.ThrowsAnyAsync<Exception>(() => IncrementAsync(binding, _fixture.Stranger));

        // The binding's summary line comes within its 10-s interval.
        var refusal = $"from users it does not serve (certificate {CertificateThumbprint.Of(_fixture.Stranger)} (CN=stranger)";
        await Eventually.HoldsAsync(
            () => _fixture.Log.Lines.Any(line => line.Contains($"Binding {binding}, last ", StringComparison.Ordinal) && line.Contains(refusal, StringComparison.Ordinal)),
            TimeSpan.FromSeconds(30), () => $"a summary line naming the refused certificate for {binding}:\n{string.Join('\n', _fixture.Log.Lines)}");

        // Counted in summary lines, not logged per refused client (with a stack trace, as Kestrel and CoreWCF would).
        Assert.All(_fixture.Log.Lines, line => Assert.Matches(@"^Warning \S+: Binding [\w-]+, last \d+ s: ", line));
    }

    [Theory]
    [MemberData(nameof(TlsBindings))]
    public async Task TheServiceSeesTheCallersCertificate(string binding)
    {
        var caller = await CallerAsync(binding, _fixture.Issued);

        Assert.NotNull(caller);
        Assert.Equal(binding, caller.Binding);
        Assert.Equal(CertificateThumbprint.Of(_fixture.Issued), caller.CertificateThumbprint);
        Assert.Equal("CN=issued", caller.Certificate?.Subject);
        Assert.True(caller.IsAuthenticated);
        Assert.Matches(@"^127\.0\.0\.1:\d+$", caller.RemoteAddress);
        Assert.StartsWith($"certificate {caller.CertificateThumbprint} (CN=issued)", caller.Name, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(BindingsThatAnswerARefusal))]
    public async Task ARefusedClient_IsToldWhy(string binding)
    {
        var stranger = await Assert.ThrowsAsync<RpcServiceException>(() => IncrementAsync(binding, _fixture.Stranger));
        var none = await Assert.ThrowsAsync<RpcServiceException>(() => IncrementAsync(binding, null));

        Assert.Equal(RpcErrorCode.PermissionDenied, stranger.Code);
        Assert.StartsWith($"This host does not serve certificate {CertificateThumbprint.Of(_fixture.Stranger)} (CN=stranger)", stranger.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(CertificateThumbprint.Of(_fixture.Listed), stranger.Message, StringComparison.Ordinal);
        Assert.Equal(RpcErrorCode.PermissionDenied, none.Code);
        Assert.Equal("This host serves only clients that present a TLS client certificate, and none was presented.", none.Message);
    }

    [Fact]
    public async Task ARefusedClient_AskingWcfHttpForItsWsdl_GetsA403SayingWhy()
    {
        using var handler = new HttpClientHandler
        {
            ClientCertificateOptions = ClientCertificateOption.Manual,
            ServerCertificateCustomValidationCallback = (_, certificate, _, _) => certificate is not null && CertificateThumbprint.Of(certificate) == _fixture.ServerThumbprint,
        };
        handler.ClientCertificates.Add(_fixture.Stranger);
        using var http = new HttpClient(handler);

        using var response = await http.GetAsync(new Uri($"{_fixture.Host.Address(BindingNames.WcfHttp)}/rpccompare.v1.FileService?wsdl")).Bounded();

        Assert.Equal(System.Net.HttpStatusCode.Forbidden, response.StatusCode);
        Assert.StartsWith($"This host does not serve certificate {CertificateThumbprint.Of(_fixture.Stranger)}", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(TlsBindings))]
    public async Task NoCertificate_IsRefused(string binding)
    {
        await Assert.ThrowsAnyAsync<Exception>(() => IncrementAsync(binding, null));
    }

    private Task<int> IncrementAsync(string binding, X509Certificate2? clientCertificate) =>
        WithClientAsync(binding, clientCertificate, async shapes => (await shapes.IncrementAsync(new IntMessage { Value = 41 }).Bounded()).Value);

    private Task<CallerIdentity?> CallerAsync(string binding, X509Certificate2 clientCertificate) =>
        WithClientAsync(binding, clientCertificate, ((CallerRecordingShapes)_fixture.Host.Services.GetRequiredService<ICallShapeService>()).CallAsync);

    private async Task<T> WithClientAsync<T>(string binding, X509Certificate2? clientCertificate, Func<ICallShapeService, Task<T>> call)
    {
        using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions
        {
            Tls = new ClientTlsOptions { ServerCertificateThumbprint = _fixture.ServerThumbprint, ClientCertificate = clientCertificate },
        });
        var shapes = factory.Create<ICallShapeService>(binding, _fixture.Host.Address(binding));
        try
        {
            return await call(shapes);
        }
        finally
        {
            await RpcClientFactory.ReleaseAsync(shapes);
        }
    }

    /// <summary>A host whose TCP bindings serve one listed client certificate and those an authority issued.</summary>
    public sealed class MutualTlsHost : IAsyncLifetime
    {
        private readonly TemporaryDirectory _state = new();

        public InProcessHost Host { get; private set; } = null!;

        public CapturedLog Log { get; } = new(LogLevel.Warning);

        public string ServerThumbprint { get; private set; } = "";

        public X509Certificate2 Listed { get; } = ClientCertificate("CN=listed");

        public X509Certificate2 Stranger { get; } = ClientCertificate("CN=stranger");

        public X509Certificate2 Issued { get; private set; } = null!;

        public async Task InitializeAsync()
        {
            using var authorityKey = ECDsa.Create(ECCurve.NamedCurves.nistP256);
            var authorityRequest = new CertificateRequest("CN=Team CA", authorityKey, HashAlgorithmName.SHA256);
            authorityRequest.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
            authorityRequest.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign, true));
            using var authority = authorityRequest.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));
            await File.WriteAllTextAsync(_state.PathFor("ca.pem"), authority.ExportCertificatePem());
            Issued = IssuedBy(authority, "CN=issued");

            var server = ServerCertificate.Load(new TlsOptions { Enabled = true }, _state.FullPath, ["localhost", "127.0.0.1"]);
            ServerThumbprint = server.Thumbprint;
            var clients = ClientCertificatePolicy.From(new TlsOptions { ClientCertificates = CertificateThumbprint.Of(Listed), ClientCertificateAuthority = _state.PathFor("ca.pem") });
            Host = await InProcessHost.StartAsync(bindings: [BindingNames.WcfNetTcp, BindingNames.WcfHttp, BindingNames.GrpcTcp, BindingNames.FastTcp], services: ["FileService"], configureServices: services =>
            {
                services.AddRpcService<ICallShapeService, CallerRecordingShapes>();
                services.AddSingleton(new TransportSecurity(server, allowInsecure: false, clients));
                Log.AddTo(services);
            });
        }

        public async Task DisposeAsync()
        {
            await Host.DisposeAsync();
            _state.Dispose();
        }

        private static X509Certificate2 ClientCertificate(string subject)
        {
            using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
            var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256);
            request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.2")], false));
            return request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));
        }

        private static X509Certificate2 IssuedBy(X509Certificate2 authority, string subject)
        {
            using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
            var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256);
            request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.2")], false));
            using var issued = request.Create(authority, DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(20), [1, 2, 3, 4]);
            return issued.CopyWithPrivateKey(key);
        }
    }
}
