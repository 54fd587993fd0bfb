using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// A user the host does not serve on its Unix sockets is answered PermissionDenied, saying which
/// user, on every Unix-socket binding. Here the host serves only a user id this process is not,
/// so no second user is needed (root included: the list replaces the default) (HostPeerCredentialsTests runs a client as nobody).
/// </summary>
public sealed class UnixPeerRefusalTests : IAsyncLifetime
{
    // A user id that is not this process's.
    private static readonly string s_otherUser = (PeerCredentials.CurrentUserId + 1).ToString(System.Globalization.CultureInfo.InvariantCulture);
    private InProcessHost _host = null!;

    public static TheoryData<string> UnixSocketBindings() => [BindingNames.WcfUds, BindingNames.GrpcUds, BindingNames.FastUds, BindingNames.Pipes];

    public async Task InitializeAsync() =>
        _host = await InProcessHost.StartAsync(bindings: [BindingNames.WcfUds, BindingNames.GrpcUds, BindingNames.FastUds, BindingNames.Pipes],
            configureServices: services => services.AddSingleton(UnixPeerPolicy.Parse(s_otherUser, "--allowed-users")));

    public async Task DisposeAsync() => await _host.DisposeAsync();

    [Theory]
    [MemberData(nameof(UnixSocketBindings))]
    public async Task AUserNotOnTheList_IsToldWhy(string binding)
    {
        var shapes = RpcClientFactory.CreateDefault().Create<ICallShapeService>(binding, _host.Address(binding));
        try
        {
            var refusal = await Assert.ThrowsAsync<RpcServiceException>(() => shapes.IncrementAsync(new IntMessage { Value = 1 }).Bounded());

            Assert.Equal(RpcErrorCode.PermissionDenied, refusal.Code);
            Assert.Equal($"This host does not serve user {PeerCredentials.CurrentUserId} on its Unix sockets (the host's --allowed-users).", refusal.Message);
        }
        finally
        {
            await RpcClientFactory.ReleaseAsync(shapes);
        }
    }
}
