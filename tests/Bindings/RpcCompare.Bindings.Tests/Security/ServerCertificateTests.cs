using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Microsoft.Extensions.Time.Testing;
using RpcCompare.Bindings.Security;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Tests.Security;

public sealed class ServerCertificateTests : IDisposable
{
    private static readonly string[] s_names = ["localhost", "127.0.0.1", "::1"];
    private static readonly TlsOptions s_selfSigned = new() { Enabled = true };
    private readonly TemporaryDirectory _state = new();
    private readonly FakeTimeProvider _time = new(new DateTimeOffset(2026, 11, 26, 0, 0, 0, TimeSpan.Zero));

    private string TlsDirectory => _state.PathFor("tls");

    public void Dispose() => _state.Dispose();

    [Fact]
    [System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
    public void WithoutAFile_ASelfSignedCertificateIsMade_NamingEveryName_KeptPrivate()
    {
        var made = ServerCertificate.Load(s_selfSigned, _state.FullPath, s_names, _time);

        Assert.True(made.Certificate.HasPrivateKey);
        Assert.Equal(s_names.Order(), ServerCertificate.Names(made.Certificate).Order());
        Assert.Equal(_time.GetUtcNow().AddDays(ServerCertificate.SelfSignedDays).UtcDateTime, made.Certificate.NotAfter.ToUniversalTime(), TimeSpan.FromSeconds(1));
        Assert.Equal($"self-signed, created at {Path.Combine(TlsDirectory, "server.crt")}", made.Source);
        Assert.Equal(CertificateThumbprint.Of(made.Certificate), made.Thumbprint);
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute, File.GetUnixFileMode(TlsDirectory));
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(Path.Combine(TlsDirectory, "server.key")));
        Assert.Equal(["server.crt", "server.key"], Directory.GetFiles(TlsDirectory).Select(Path.GetFileName).Order());
    }

    [Fact]
    public void TheSelfSignedCertificate_IsForServerAuthentication_AndNoAuthority()
    {
        var made = ServerCertificate.Load(s_selfSigned, _state.FullPath, s_names, _time).Certificate;

        var usage = Assert.Single(made.Extensions.OfType<X509EnhancedKeyUsageExtension>());
        Assert.Equal(["1.3.6.1.5.5.7.3.1"], usage.EnhancedKeyUsages.Cast<Oid>().Select(o => o.Value));
        Assert.False(Assert.Single(made.Extensions.OfType<X509BasicConstraintsExtension>()).CertificateAuthority);
    }

    [Fact]
    public void ASecondStart_ReusesTheCertificate_SoPinsStayValid()
    {
        var first = ServerCertificate.Load(s_selfSigned, _state.FullPath, s_names, _time);
        _time.Advance(TimeSpan.FromDays(300));

        var second = ServerCertificate.Load(s_selfSigned, _state.FullPath, ["localhost", "::1"], _time);

        Assert.Equal(first.Thumbprint, second.Thumbprint);
        Assert.True(second.Certificate.HasPrivateKey);
        Assert.StartsWith("self-signed, reused from ", second.Source, StringComparison.Ordinal);
    }

    [Fact]
    public void ACertificateWithin30DaysOfItsEnd_IsReplaced()
    {
        var first = ServerCertificate.Load(s_selfSigned, _state.FullPath, s_names, _time);
        _time.Advance(TimeSpan.FromDays(ServerCertificate.SelfSignedDays - 29));

        var second = ServerCertificate.Load(s_selfSigned, _state.FullPath, s_names, _time);

        Assert.NotEqual(first.Thumbprint, second.Thumbprint);
        Assert.StartsWith("self-signed, created at ", second.Source, StringComparison.Ordinal);
    }

    [Fact]
    public void ACertificateLackingAName_IsReplacedByOneNamingIt()
    {
        var first = ServerCertificate.Load(s_selfSigned, _state.FullPath, s_names, _time);

        var second = ServerCertificate.Load(s_selfSigned, _state.FullPath, [.. s_names, "rpccompare-host"], _time);

        Assert.NotEqual(first.Thumbprint, second.Thumbprint);
        Assert.Contains("rpccompare-host", ServerCertificate.Names(second.Certificate));
    }

    [Fact]
    public void ADamagedCertificate_IsReplaced()
    {
        ServerCertificate.Load(s_selfSigned, _state.FullPath, s_names, _time);
        File.WriteAllText(Path.Combine(TlsDirectory, "server.crt"), "not a certificate");

        var replaced = ServerCertificate.Load(s_selfSigned, _state.FullPath, s_names, _time);

        Assert.StartsWith("self-signed, created at ", replaced.Source, StringComparison.Ordinal);
        Assert.True(replaced.Certificate.HasPrivateKey);
    }

    [Fact]
    public void APemFileAndKey_AreLoaded()
    {
        var (certificateFile, keyFile, expected) = WritePem(withKeyInside: false);

        var loaded = ServerCertificate.Load(new TlsOptions { CertificateFile = certificateFile, KeyFile = keyFile }, _state.FullPath, s_names, _time);

        Assert.Equal(expected, loaded.Thumbprint);
        Assert.True(loaded.Certificate.HasPrivateKey);
        Assert.Equal($"from {certificateFile}", loaded.Source);
        Assert.False(Directory.Exists(TlsDirectory));
    }

    [Fact]
    public void APemFileHoldingItsKey_IsLoaded()
    {
        var (certificateFile, _, expected) = WritePem(withKeyInside: true);

        Assert.Equal(expected, ServerCertificate.Load(new TlsOptions { CertificateFile = certificateFile }, _state.FullPath, s_names, _time).Thumbprint);
    }

    [Fact]
    public void APkcs12File_IsLoaded_WithItsPassword()
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        using var certificate = new CertificateRequest("CN=pfx", key, HashAlgorithmName.SHA256).CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(1));
        var file = _state.PathFor("server.pfx");
        File.WriteAllBytes(file, certificate.Export(X509ContentType.Pkcs12, "secret"));

        var loaded = ServerCertificate.Load(new TlsOptions { CertificateFile = file, CertificatePassword = "secret" }, _state.FullPath, s_names, _time);

        Assert.Equal(CertificateThumbprint.Of(certificate), loaded.Thumbprint);
        Assert.True(loaded.Certificate.HasPrivateKey);
    }

    [Fact]
    public void ACertificateWithoutItsKey_IsRefused_SayingWhereToGiveIt()
    {
        var (certificateFile, _, _) = WritePem(withKeyInside: false);

        var error = Assert.Throws<InvalidOperationException>(() => ServerCertificate.Load(new TlsOptions { CertificateFile = certificateFile }, _state.FullPath, s_names, _time));

        Assert.StartsWith($"Tls:CertificateFile '{certificateFile}' could not be read: ", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void APkcs12FileWithoutAKey_IsRefused()
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        using var certificate = new CertificateRequest("CN=pfx", key, HashAlgorithmName.SHA256).CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(1));
        var file = _state.PathFor("public.pfx");
        using (var publicOnly = X509CertificateLoader.LoadCertificate(certificate.RawData))
        {
            File.WriteAllBytes(file, publicOnly.Export(X509ContentType.Pkcs12));
        }

        var error = Assert.Throws<InvalidOperationException>(() => ServerCertificate.Load(new TlsOptions { CertificateFile = file }, _state.FullPath, s_names, _time));

        Assert.Equal($"Tls:CertificateFile '{file}' holds no private key; give it in the same file or as Tls:KeyFile.", error.Message);
    }

    [Fact]
    public void AMissingFile_IsRefused_NamingTheSettingAndTheKeyFile()
    {
        var missing = _state.PathFor("missing.pem");

        var error = Assert.Throws<InvalidOperationException>(() => ServerCertificate.Load(new TlsOptions { CertificateFile = missing, KeyFile = "k.pem" }, _state.FullPath, s_names, _time));

        Assert.StartsWith($"Tls:CertificateFile '{missing}' with Tls:KeyFile 'k.pem' could not be read: ", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ThePinnedThumbprint_IsTrusted_AnotherIsNot_WhateverTheChainSays()
    {
        var certificate = ServerCertificate.Load(s_selfSigned, _state.FullPath, s_names, _time);
        var pinned = new ClientTlsOptions { ServerCertificateThumbprint = certificate.Thumbprint.ToLowerInvariant() };
        var other = new ClientTlsOptions { ServerCertificateThumbprint = new string('0', 64) };
        var system = new ClientTlsOptions();

        Assert.True(pinned.Trusts(certificate.Certificate, SslPolicyErrors.RemoteCertificateChainErrors | SslPolicyErrors.RemoteCertificateNameMismatch));
        Assert.False(other.Trusts(certificate.Certificate, SslPolicyErrors.None));
        Assert.False(pinned.Trusts(null, SslPolicyErrors.None));
        Assert.False(system.Trusts(certificate.Certificate, SslPolicyErrors.RemoteCertificateChainErrors));
        Assert.True(system.Trusts(certificate.Certificate, SslPolicyErrors.None));
        Assert.Equal($"the server's certificate has SHA-256 thumbprint {certificate.Thumbprint}, not the pinned {new string('0', 64)}",
            other.DescribeRefusal(certificate.Certificate, SslPolicyErrors.None));
        Assert.Equal("the server presented no certificate", other.DescribeRefusal(null, SslPolicyErrors.RemoteCertificateNotAvailable));
        Assert.StartsWith("the server's certificate is not trusted here (RemoteCertificateChainErrors); pin its thumbprint",
            system.DescribeRefusal(certificate.Certificate, SslPolicyErrors.RemoteCertificateChainErrors), StringComparison.Ordinal);
    }

    [Fact]
    public void TheValidationCallback_ThrowsTheReason_ForARefusedCertificate()
    {
        var certificate = ServerCertificate.Load(s_selfSigned, _state.FullPath, s_names, _time);
        var callback = new ClientTlsOptions { ServerCertificateThumbprint = new string('0', 64) }.ValidationCallback;

        var error = Assert.Throws<System.Security.Authentication.AuthenticationException>(() => callback(this, certificate.Certificate, null, SslPolicyErrors.None));

        Assert.StartsWith("the server's certificate has SHA-256 thumbprint", error.Message, StringComparison.Ordinal);
        Assert.True(new ClientTlsOptions { ServerCertificateThumbprint = certificate.Thumbprint }.ValidationCallback(this, certificate.Certificate, null, SslPolicyErrors.None));
    }

    [Theory]
    [InlineData("ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67:89")]
    [InlineData("ABCDEF0123456789ABCDEF0123456789 ABCDEF0123456789ABCDEF0123456789")]
    public void AThumbprintAsPeopleWriteIt_IsNormalized(string written)
    {
        Assert.Equal("ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789", CertificateThumbprint.Normalize(written, "--tls-thumbprint"));
    }

    [Theory]
    [InlineData("ABCDEF")]
    [InlineData("ZZCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789")]
    [InlineData("B5293B5B95B1F2937936BE6A354749644BECC59B")]
    public void AThumbprintOfAnotherLength_OrNotHex_IsRefused_NamingTheSetting(string written)
    {
        var error = Assert.Throws<ArgumentException>(() => CertificateThumbprint.Normalize(written, "--tls-thumbprint"));

        Assert.Equal($"--tls-thumbprint must be a SHA-256 thumbprint (64 hex digits); got '{written}'.", error.Message);
    }

    private (string CertificateFile, string KeyFile, string Thumbprint) WritePem(bool withKeyInside)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        using var certificate = new CertificateRequest("CN=pem", key, HashAlgorithmName.SHA256).CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddDays(1));
        var certificateFile = _state.PathFor("server.pem");
        var keyFile = _state.PathFor("server-key.pem");
        File.WriteAllText(certificateFile, certificate.ExportCertificatePem() + (withKeyInside ? "\n" + key.ExportPkcs8PrivateKeyPem() : ""));
        File.WriteAllText(keyFile, key.ExportPkcs8PrivateKeyPem());
        return (certificateFile, keyFile, CertificateThumbprint.Of(certificate));
    }
}
