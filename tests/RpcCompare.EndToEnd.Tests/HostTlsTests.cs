using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Cli;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests;

/// <summary>The host with --tls: its certificate, what it publishes, rpcc through it, and what it refuses to start with.</summary>
public sealed class HostTlsTests
{
    private static readonly string[] s_tcpBindings = [BindingNames.WcfNetTcp, BindingNames.WcfHttp, BindingNames.GrpcTcp, BindingNames.FastTcp];

    [Fact]
    public async Task WithTls_TheHostMakesACertificate_PublishesItsThumbprint_KeepsItAcrossRestarts_AndRpccCallsThroughIt()
    {
        using var directory = new TemporaryDirectory();
        var endpointsPath = directory.PathFor("endpoints.json");
        var state = directory.PathFor("state");
        string thumbprint;
        await using (var host = HostProcess.Start("--tls", "--state-dir", state, "--bindings", string.Join(',', s_tcpBindings), "--endpoints-file", endpointsPath))
        {
            var addresses = await host.WaitForEndpointsAsync(endpointsPath);
            thumbprint = EndpointsFile.Read(endpointsPath).CertificateThumbprint!;
            Assert.Equal(CertificateThumbprint.Of(X509CertificateLoader.LoadCertificateFromFile(Path.Combine(state, "tls", "server.crt"))), thumbprint);
            await host.WaitForOutputAsync($"TLS on the TCP bindings: certificate SHA-256 {thumbprint} (self-signed, created at {Path.Combine(state, "tls", "server.crt")})");
            Assert.StartsWith("https://127.0.0.1:", addresses[BindingNames.WcfHttp], StringComparison.Ordinal);
            Assert.StartsWith("https://127.0.0.1:", addresses[BindingNames.GrpcTcp], StringComparison.Ordinal);
            foreach (var binding in s_tcpBindings)
            {
                // Through the endpoints file: its thumbprint is trusted.
                var (exitCode, output, error) = await Rpcc.RunAsync(["call", "-b", binding, "-e", endpointsPath, "Ping"]);
                Assert.Equal((binding, RpccCommands.Ok, "{}\n", ""), (binding, exitCode, output, error));

                // By address alone with TLS asked for: the self-signed certificate is not trusted, and rpcc says why.
                var untrusted = await Rpcc.RunAsync(["call", "-b", binding, "-a", addresses[binding], "--tls", "Ping"]);
                Assert.Equal(RpccCommands.CallFailed, untrusted.ExitCode);
                // (The frameworks' errors are prefixed by rpcc; fast-tcp's own says where it could not connect.)
                Assert.Matches($"^error: (Could not connect to )?{binding} at {addresses[binding]}(:| in TLS:) .*(chain|not trusted)", untrusted.Error);

                // By address with the thumbprint as a person would copy it from the log.
                var pinned = await Rpcc.RunAsync(["call", "-b", binding, "-a", addresses[binding], "--tls-thumbprint", thumbprint.ToLowerInvariant(), "Ping"]);
                Assert.Equal((RpccCommands.Ok, "{}\n"), (pinned.ExitCode, pinned.Output));
            }

            Assert.Equal((RpccCommands.Ok, "SERVING\n"), await HealthAsync(endpointsPath));
        }

        await using (var again = HostProcess.Start("--tls", "--state-dir", state, "--bindings", BindingNames.GrpcTcp, "--endpoints-file", endpointsPath))
        {
            await again.WaitForEndpointsAsync(endpointsPath);
            Assert.Equal(thumbprint, EndpointsFile.Read(endpointsPath).CertificateThumbprint);
            await again.WaitForOutputAsync("(self-signed, reused from ");
        }
    }

    [Fact]
    public async Task AConfiguredCertificate_IsTheOnePresented()
    {
        using var directory = new TemporaryDirectory();
        var endpointsPath = directory.PathFor("endpoints.json");
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        using var certificate = new CertificateRequest("CN=team certificate", key, HashAlgorithmName.SHA256).CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(30));
        await File.WriteAllTextAsync(directory.PathFor("server.pem"), certificate.ExportCertificatePem());
        await File.WriteAllTextAsync(directory.PathFor("server.key"), key.ExportPkcs8PrivateKeyPem());

        await using var host = HostProcess.Start("--tls-certificate", directory.PathFor("server.pem"), "--tls-key", directory.PathFor("server.key"),
            "--state-dir", directory.PathFor("state"), "--bindings", BindingNames.GrpcTcp, "--endpoints-file", endpointsPath);
        await host.WaitForEndpointsAsync(endpointsPath);

        Assert.Equal(CertificateThumbprint.Of(certificate), EndpointsFile.Read(endpointsPath).CertificateThumbprint);
        Assert.Equal((RpccCommands.Ok, "SERVING\n"), await HealthAsync(endpointsPath));
        Assert.False(Directory.Exists(directory.PathFor("state")), "a configured certificate needs no state directory");
    }

    [Fact]
    public async Task AnUnreadableCertificate_StopsTheHost_BeforeItListens_SayingWhy()
    {
        using var directory = new TemporaryDirectory();
        await File.WriteAllTextAsync(directory.PathFor("server.pem"), "not a certificate");

        await using var host = HostProcess.Start("--tls-certificate", directory.PathFor("server.pem"), "--bindings", BindingNames.GrpcTcp);

        Assert.Equal(2, await host.WaitForExitAsync());
        Assert.Contains($"rpccompare-host: Tls:CertificateFile '{directory.PathFor("server.pem")}' could not be read: ", host.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ListeningBeyondLoopback_WithoutTls_IsRefused_BeforeAnyPortIsOpen()
    {
        using var directory = new TemporaryDirectory();

        // Refused while the first TCP binding is configured: nothing ever listens on 0.0.0.0.
        await using var host = HostProcess.Start("--listen-address", "0.0.0.0", "--bindings", string.Join(',', s_tcpBindings), "--endpoints-file", directory.PathFor("endpoints.json"));

        Assert.Equal(1, await host.WaitForExitAsync());
        Assert.Contains("rpccompare-host: wcf-nettcp would listen on 0.0.0.0 (WcfNetTcp:ListenAddress) without TLS. Start the host with --tls", host.Output, StringComparison.Ordinal);
        Assert.False(File.Exists(directory.PathFor("endpoints.json")));
    }

    [Fact]
    public async Task WithTls_EveryBinding_IsServed_FastTcpToo()
    {
        using var directory = new TemporaryDirectory();
        var endpointsPath = directory.PathFor("endpoints.json");
        await using var host = HostProcess.Start("--tls", "--state-dir", directory.PathFor("state"), "--socket-dir", directory.PathFor("s"), "--endpoints-file", endpointsPath);

        var addresses = await host.WaitForEndpointsAsync(endpointsPath);

        Assert.Contains(BindingNames.FastTcp, addresses.Keys);
        Assert.Contains(BindingNames.FastUds, addresses.Keys);
        var (exitCode, output, error) = await Rpcc.RunAsync(["call", "-b", BindingNames.FastTcp, "-e", endpointsPath, "Ping"]);
        Assert.Equal((RpccCommands.Ok, "{}\n", ""), (exitCode, output, error));
    }

    [Fact]
    public async Task FastTcp_BeyondLoopbackWithoutTls_IsRefused()
    {
        await using var host = HostProcess.Start("--listen-address", "0.0.0.0", "--bindings", BindingNames.FastTcp);

        Assert.Equal(1, await host.WaitForExitAsync());
        Assert.Contains("rpccompare-host: fast-tcp would listen on 0.0.0.0 (FastTcp:ListenAddress) without TLS. Start the host with --tls", host.Output, StringComparison.Ordinal);
    }

    private static async Task<(int ExitCode, string Output)> HealthAsync(string endpointsPath)
    {
        var (exitCode, output, _) = await Rpcc.RunAsync(["health", "-b", BindingNames.GrpcTcp, "-e", endpointsPath]);
        return (exitCode, output);
    }
}
