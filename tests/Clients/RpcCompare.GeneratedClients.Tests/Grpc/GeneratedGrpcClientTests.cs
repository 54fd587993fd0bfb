using Grpc.Core;
using RpcCompare.Bindings;

namespace RpcCompare.GeneratedClients.Tests.Grpc;

[Collection(SharedHost.Name)]
public sealed class GeneratedGrpcClientTests(HostFixture fixture)
{
    public static TheoryData<string, string> Cases => HostFixture.Cases(BindingNames.GrpcTcp, BindingNames.GrpcUds);

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task GeneratedClient_GetsWhatRpccGets(string binding, string call)
    {
        using var client = Connect(binding);
        await fixture.AssertSameAsRpccAsync(binding, client, HostFixture.Call(call));
    }

    [Fact]
    public async Task RefusedPath_ArrivesAsPermissionDeniedWithTheCodeTrailer()
    {
        using var client = Connect(BindingNames.GrpcTcp);

        var error = await Assert.ThrowsAsync<RpcException>(() => client.ReadDirectoryAsync("../outside"));

        Assert.Equal(StatusCode.PermissionDenied, error.StatusCode);
        Assert.Equal("PathRefused", client.ErrorCodeOf(error));
    }

    private GeneratedGrpcClient Connect(string binding) => binding == BindingNames.GrpcUds
        ? GeneratedGrpcClient.OverUnixSocket(fixture.Host.Address(binding))
        : GeneratedGrpcClient.OverTcp(fixture.Host.Address(binding));
}
