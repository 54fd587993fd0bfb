using System.ServiceModel;
using RpcCompare.Bindings;

namespace RpcCompare.GeneratedClients.Tests.Wcf;

[Collection(SharedHost.Name)]
public sealed class GeneratedWcfClientTests(HostFixture fixture)
{
    public static TheoryData<string, string> Cases => HostFixture.Cases(BindingNames.WcfHttp, BindingNames.WcfNetTcp);

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task GeneratedClient_GetsWhatRpccGets(string binding, string call)
    {
        await using var client = Connect(binding);
        await fixture.AssertSameAsRpccAsync(binding, client, HostFixture.Call(call));
    }

    [Fact]
    public async Task RefusedPath_ArrivesAsTheTypedFaultOfTheWsdl()
    {
        await using var client = Connect(BindingNames.WcfHttp);

        var error = await Assert.ThrowsAsync<FaultException<Generated.Wcf.FileService.RpcFault>>(() => client.ReadDirectoryAsync("../outside"));

        Assert.Equal(Generated.Wcf.FileService.RpcErrorCode.PathRefused, error.Detail.Code);
        Assert.False(string.IsNullOrEmpty(error.Detail.Message));
    }

    private GeneratedWcfClient Connect(string binding) => binding == BindingNames.WcfNetTcp
        ? GeneratedWcfClient.OverNetTcp(fixture.Host.Address(binding))
        : GeneratedWcfClient.OverHttp(fixture.Host.Address(binding));
}
