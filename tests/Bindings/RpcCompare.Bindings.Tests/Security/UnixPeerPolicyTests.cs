using System.Net.Sockets;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Tests.Security;

public sealed class UnixPeerPolicyTests
{
    [Fact]
    public void ByDefault_TheHostsOwnUserAndRootAreServed_NobodyElse()
    {
        var policy = UnixPeerPolicy.Parse(null, "--allowed-users");

        Assert.Same(UnixPeerPolicy.OwnUser, policy);
        Assert.True(policy.Allows(new PeerCredentials(1, PeerCredentials.CurrentUserId, 0)));
        Assert.True(policy.Allows(new PeerCredentials(1, 0, 0)));
        Assert.False(policy.Allows(new PeerCredentials(1, 65534, 65534)));
        Assert.Equal(PeerCredentials.CurrentUserId == 0 ? "users 0" : $"users 0, {PeerCredentials.CurrentUserId}", policy.Description);
    }

    [Fact]
    public void AList_ServesExactlyItsUsers()
    {
        var policy = UnixPeerPolicy.Parse(" 1000, 65534 ", "--allowed-users");

        Assert.True(policy.Allows(new PeerCredentials(1, 1000, 0)));
        Assert.True(policy.Allows(new PeerCredentials(1, 65534, 0)));
        Assert.False(policy.Allows(new PeerCredentials(1, 0, 0)));
        Assert.Equal("users 1000, 65534", policy.Description);
    }

    [Fact]
    public void Any_ServesEveryUser()
    {
        var policy = UnixPeerPolicy.Parse("ANY", "--allowed-users");

        Assert.True(policy.Allows(new PeerCredentials(1, 65534, 0)));
        Assert.Equal("any user", policy.Description);
    }

    [Theory]
    [InlineData("root")]
    [InlineData("-1")]
    [InlineData("1000;1001")]
    public void AnythingButUserIds_IsRefused_NamingTheSetting(string value)
    {
        var error = Assert.Throws<ArgumentException>(() => UnixPeerPolicy.Parse(value, "--allowed-users"));

        Assert.StartsWith("--allowed-users takes user ids (numbers) separated by commas, or \"any\"; got '", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void APeerWhoseCredentialsCannotBeRead_IsServed_AsNothingCanBeChecked()
    {
        Assert.True(UnixPeerPolicy.Parse("1000", "--allowed-users").Allows(null));
    }

    [Fact]
    public void ARefusal_IsCountedWithItsUid_AndTellsTheClientWhoWasRefusedButNotTheList()
    {
        var log = new CapturedLog(Microsoft.Extensions.Logging.LogLevel.Warning);
        using (var incidents = new ConnectionIncidents("pipes", "3,000 (Pipes:MaxConnections)", log.CreateLogger("test")))
        {
            Assert.Equal("This host does not serve user 65534 on its Unix sockets (the host's --allowed-users).",
                UnixPeerPolicy.Parse("1000", "--allowed-users").Refuse(new PeerCredentials(7, 65534, 65534), incidents));
            Assert.Null(UnixPeerPolicy.Parse("1000", "--allowed-users").Refuse(new PeerCredentials(7, 1000, 1000), incidents));
        }

        Assert.Contains("refused 1 connection from users it does not serve (uid 65534: 1)", Assert.Single(log.Lines), StringComparison.Ordinal);
    }

    [Fact]
    public void TheKernelNamesThisProcess_AsThePeerOfItsOwnConnection()
    {
        using var directory = new TemporaryDirectory();
        var endpoint = new UnixDomainSocketEndPoint(directory.PathFor("peer.sock"));
        using var listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        listener.Bind(endpoint);
        listener.Listen();
        using var client = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        client.Connect(endpoint);
        using var accepted = listener.Accept();

        var peer = PeerCredentials.Of(accepted.SafeHandle);

        Assert.Equal(Environment.ProcessId, peer?.ProcessId);
        Assert.Equal(PeerCredentials.CurrentUserId, peer?.UserId);
    }
}
