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

        Assert.Contains("pipes, inproc", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(BindingNames.WcfNetTcp, "CoreWCF")]
    [InlineData(BindingNames.WcfUds, "CoreWCF")]
    [InlineData(BindingNames.WcfHttp, "CoreWCF")]
    [InlineData(BindingNames.GrpcTcp, "Grpc.Net.Common")]
    [InlineData(BindingNames.GrpcUds, "Grpc.Net.Common")]
    public void BindingMissingFromThisBuild_IsRefusedWithTheReason(string binding, string missingPackage)
    {
        var error = Assert.Throws<NotSupportedException>(() => _factory.Create<IFileService>(binding, "x"));

        Assert.Contains(missingPackage, error.Message, StringComparison.Ordinal);
        Assert.Contains("docs/packages.md", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void InProc_WithMissingDataRoot_IsRefused()
    {
        Assert.Throws<DirectoryNotFoundException>(() => _factory.Create<IFileService>(BindingNames.InProc, "/nonexistent/rpccompare"));
    }
}
