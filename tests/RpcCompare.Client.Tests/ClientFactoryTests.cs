using RpcCompare.Bindings;
using RpcCompare.Contracts;

namespace RpcCompare.Client.Tests;

public sealed class ClientFactoryTests
{
    private readonly RpcClientFactory _factory = RpcClientFactory.CreateDefault();

    [Fact]
    public void UnknownBinding_IsRefusedWithTheOfferedNames()
    {
        var error = Assert.Throws<ArgumentException>(() => _factory.Create<IFileService>("carrier-pigeon", "x"));

        Assert.Contains("wcf-nettcp, wcf-uds, wcf-http, grpc-tcp, grpc-uds, fast-tcp, fast-uds, pipes, inproc", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(BindingNames.WcfNetTcp, "127.0.0.1:8808", "net.tcp:// URL")]
    [InlineData(BindingNames.WcfUds, "wcf-uds", "absolute path")]
    [InlineData(BindingNames.WcfHttp, "net.tcp://127.0.0.1:1", "http:// or https:// URL")]
    [InlineData(BindingNames.GrpcTcp, "localhost:5000", "http:// or https:// URL")]
    [InlineData(BindingNames.GrpcUds, "grpc.sock", "absolute socket path")]
    [InlineData(BindingNames.FastUds, "fast.sock", "absolute socket path")]
    [InlineData(BindingNames.FastTcp, "127.0.0.1:5000", "tcp://host:port")]
    [InlineData(BindingNames.FastTcp, "http://127.0.0.1:5000", "tcp://host:port")]
    [InlineData(BindingNames.FastTcp, "tcp://127.0.0.1", "tcp://host:port")]
    public void MalformedAddress_IsRefusedWithTheExpectedForm(string binding, string address, string expected)
    {
        var error = Assert.Throws<ArgumentException>(() => _factory.Create<IFileService>(binding, address));

        Assert.Contains(expected, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void InProc_WithMissingDataRoot_IsRefused()
    {
        Assert.Throws<DirectoryNotFoundException>(() => _factory.Create<IFileService>(BindingNames.InProc, "/nonexistent/rpccompare"));
    }
}
