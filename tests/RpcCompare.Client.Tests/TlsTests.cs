using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Client.Tests.Push;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// The four TCP bindings with the host's TLS on: every operation, stream and push works through
/// the factory trusting the pinned certificate, exactly as in plaintext; a client that speaks
/// plaintext, pins another certificate or trusts only the system's roots is refused. Run apart
/// from the push tests, which count the process's sockets.
/// </summary>
[Collection(PushTestsRunAlone.Name)]
public sealed class TlsTests : IClassFixture<TlsTests.TlsHostFixture>
{
    private static readonly string[] s_tlsBindings = [BindingNames.WcfNetTcp, BindingNames.WcfHttp, BindingNames.GrpcTcp, BindingNames.FastTcp];
    private readonly TlsHostFixture _fixture;

    public TlsTests(TlsHostFixture fixture)
    {
        _fixture = fixture;
    }

    public static TheoryData<ParityCase> Cases() => [.. ParityCases.All()];

    public static TheoryData<string> TlsBindings() => [.. s_tlsBindings];

    [Fact]
    public void TheHttpBindings_PublishHttpsAddresses()
    {
        Assert.StartsWith("https://", _fixture.Host.Address(BindingNames.WcfHttp), StringComparison.Ordinal);
        Assert.StartsWith("https://", _fixture.Host.Address(BindingNames.GrpcTcp), StringComparison.Ordinal);
        Assert.StartsWith("net.tcp://", _fixture.Host.Address(BindingNames.WcfNetTcp), StringComparison.Ordinal);
        // Like net.tcp://, a fast-tcp address cannot say TLS: the client's TLS options do (and the endpoints file's thumbprint).
        Assert.StartsWith("tcp://", _fixture.Host.Address(BindingNames.FastTcp), StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Operation_OverTls_GivesWhatTheInProcessCallGives(ParityCase parityCase)
    {
        var reference = await OutcomeAsync(BindingNames.InProc, parityCase);
        Assert.True(parityCase.IsExpected(reference), $"inproc gave {reference}; expected /{parityCase.Expected}/");
        foreach (var binding in s_tlsBindings)
        {
            var outcome = await OutcomeAsync(binding, parityCase);
            if (parityCase.MayExceedQuota && outcome.StartsWith("error: QuotaExceeded: ", StringComparison.Ordinal))
            {
                continue;
            }

            Assert.Equal((binding, reference), (binding, outcome));
        }
    }

    [Fact]
    public async Task Streams_OverTls_MoveTheSameBytes_AsTheInProcessCall()
    {
        var expected = await FileTransferParityTests.TranscriptAsync(_fixture.Trusting, BindingNames.InProc, _fixture.Host.Address(BindingNames.InProc)).Bounded();
        foreach (var binding in s_tlsBindings)
        {
            Assert.Equal((binding, expected), (binding, await FileTransferParityTests.TranscriptAsync(_fixture.Trusting, binding, _fixture.Host.Address(binding)).Bounded()));
        }
    }

    [Theory]
    [MemberData(nameof(TlsBindings))]
    public async Task Push_OverTls_DeliversEveryPublication_InOrder(string binding)
    {
        var topic = $"tls-{binding}";
        await using var subscriber = _fixture.Trusting.CreatePushClient(binding, _fixture.Host.Address(binding));
        await using var publisher = _fixture.Trusting.CreatePushClient(binding, _fixture.Host.Address(binding));
        var received = new ReceivedNotifications();
        await using var subscription = await subscriber.SubscribeAsync(topic, received.Add).Bounded();
        for (var i = 1; i <= 5; i++)
        {
            await publisher.PublishAsync(new Notification { Topic = topic, Publisher = "tls-test", Items = [$"item {i}"] }).Bounded();
        }

        await received.CountAsync(5).Bounded();
        Assert.Equal([1L, 2, 3, 4, 5], received.Sequences);
    }

    [Theory]
    [MemberData(nameof(TlsBindings))]
    public async Task AnotherPinnedCertificate_IsRefused_SayingWhichCertificateTheServerHad(string binding)
    {
        using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { Tls = new ClientTlsOptions { ServerCertificateThumbprint = new string('0', 64) } });

        var error = await PingFailureAsync(factory, binding);

        Assert.Contains($"the server's certificate has SHA-256 thumbprint {_fixture.Thumbprint}, not the pinned {new string('0', 64)}", Innermost(error).Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(TlsBindings))]
    public async Task TheSystemsRootsAlone_DoNotTrustTheSelfSignedCertificate(string binding)
    {
        using var factory = RpcClientFactory.CreateDefault(new RpcClientOptions { Tls = new ClientTlsOptions() });

        var error = await PingFailureAsync(factory, binding);

        Assert.Matches("chain|not trusted", Innermost(error).Message);
    }

    [Theory]
    [MemberData(nameof(TlsBindings))]
    public async Task APlaintextClient_IsNotServed(string binding)
    {
        using var factory = RpcClientFactory.CreateDefault();

        await PingFailureAsync(factory, binding, _fixture.Host.Address(binding).Replace("https://", "http://", StringComparison.Ordinal));
    }

    // A WCF proxy opens its channel (the TLS handshake) when created, a gRPC one on its first call.
    private async Task<Exception> PingFailureAsync(RpcClientFactory factory, string binding, string? address = null) =>
        await Assert.ThrowsAnyAsync<Exception>(async () =>
        {
            var files = factory.Create<IFileService>(binding, address ?? _fixture.Host.Address(binding));
            try
            {
                await files.PingAsync(new PingRequest()).Bounded();
            }
            finally
            {
                await RpcClientFactory.ReleaseAsync(files);
            }
        });

    private static Exception Innermost(Exception exception)
    {
        var inner = exception is Grpc.Core.RpcException { Status.DebugException: { } debug } ? debug : exception;
        while (inner.InnerException is { } next)
        {
            inner = next;
        }

        return inner;
    }

    private Task<string> OutcomeAsync(string binding, ParityCase parityCase) => parityCase.OutcomeAsync(_fixture.Trusting, binding, _fixture.Host.Address(binding));

    /// <summary>A host serving the TCP bindings with a self-signed certificate, and a factory pinning it.</summary>
    public sealed class TlsHostFixture : IAsyncLifetime
    {
        private readonly TemporaryDirectory _state = new();
        private readonly TemporaryDirectory _outside = new();

        public InProcessHost Host { get; private set; } = null!;

        public string Thumbprint { get; private set; } = "";

        public RpcClientFactory Trusting { get; private set; } = null!;

        public async Task InitializeAsync()
        {
            var certificate = ServerCertificate.Load(new TlsOptions { Enabled = true }, _state.FullPath, ["localhost", "127.0.0.1"]);
            Thumbprint = certificate.Thumbprint;
            Host = await InProcessHost.StartAsync(bindings: s_tlsBindings,
                configureServices: services => services.AddSingleton(new TransportSecurity(certificate, allowInsecure: false)));
            Directory.CreateSymbolicLink(Path.Combine(Host.DataRoot, ParityCases.OutsideLinkName), _outside.FullPath);
            Trusting = RpcClientFactory.CreateDefault(new RpcClientOptions { Tls = new ClientTlsOptions { ServerCertificateThumbprint = Thumbprint } });
        }

        public async Task DisposeAsync()
        {
            Trusting.Dispose();
            await Host.DisposeAsync();
            _outside.Dispose();
            _state.Dispose();
        }
    }
}
