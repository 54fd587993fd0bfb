using System.Net;
using RpcCompare.Bindings.Security;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Tests.Security;

public sealed class TransportSecurityTests
{
    [Theory]
    [InlineData("127.0.0.1")]
    [InlineData("127.0.0.2")]
    [InlineData("::1")]
    public void Loopback_MayBePlaintext(string address)
    {
        TransportSecurity.Plaintext.ThrowIfExposed("grpc-tcp", IPAddress.Parse(address), "GrpcTcp:ListenAddress");
    }

    [Theory]
    [InlineData("0.0.0.0")]
    [InlineData("::")]
    [InlineData("10.1.2.3")]
    public void AnyOtherAddress_InPlaintext_IsRefused_SayingHowToGoOn(string address)
    {
        var error = Assert.Throws<InvalidOperationException>(() => TransportSecurity.Plaintext.ThrowIfExposed("grpc-tcp", IPAddress.Parse(address), "GrpcTcp:ListenAddress"));

        Assert.Equal(
            $"grpc-tcp would listen on {address} (GrpcTcp:ListenAddress) without TLS. Start the host with --tls (a self-signed certificate is made in its state directory " +
            "unless --tls-certificate names one), or with --allow-insecure to serve plaintext beyond this machine on purpose.",
            error.Message);
    }

    [Fact]
    public void AnyOtherAddress_IsServed_WhenPlaintextIsAllowed()
    {
        var allowed = new TransportSecurity(null, allowInsecure: true);

        allowed.ThrowIfExposed("wcf-http", IPAddress.Any, "WcfHttp:ListenAddress");
        Assert.False(allowed.UsesTls);
    }

    [Fact]
    public void AnyOtherAddress_IsServed_WithTls()
    {
        using var state = new TemporaryDirectory();
        var secure = new TransportSecurity(ServerCertificate.Load(new TlsOptions { Enabled = true }, state.FullPath, ["localhost"]), allowInsecure: false);

        secure.ThrowIfExposed("wcf-nettcp", IPAddress.Any, "WcfNetTcp:ListenAddress");
        Assert.True(secure.UsesTls);
    }
}
