using System.Net;
using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>A peer's hang-up is seen behind bytes it sent before and nobody read yet, on both sockets the bindings use.</summary>
public sealed class PeerHangUpTests
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task AHangUpBehindUnreadBytes_IsSeen_AndNotBeforeIt(bool tcp)
    {
        using var directory = new TemporaryDirectory();
        var (listener, endpoint) = tcp
            ? (new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp), (EndPoint)new IPEndPoint(IPAddress.Loopback, 0))
            : (new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified), new UnixDomainSocketEndPoint(directory.PathFor("s.sock")));
        using var _ = listener;
        listener.Bind(endpoint);
        listener.Listen();
        using var client = new Socket(listener.AddressFamily, SocketType.Stream, tcp ? ProtocolType.Tcp : ProtocolType.Unspecified);
        await client.ConnectAsync(listener.LocalEndPoint!).Bounded();
        using var server = await listener.AcceptAsync().Bounded();

        client.Send(new byte[1000]);
        await Eventually.HoldsAsync(() => server.Available == 1000, TimeSpan.FromSeconds(10), () => "the bytes never arrived");
        Assert.False(PeerHangUp.HasHappened(server));

        client.Shutdown(SocketShutdown.Both);
        client.Close();

        await Eventually.HoldsAsync(() => PeerHangUp.HasHappened(server), TimeSpan.FromSeconds(10), () => "the hang-up was not seen");
        Assert.Equal(1000, server.Available);
    }

    [Fact]
    public void AClosedSocket_HasHungUp()
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        socket.Dispose();

        Assert.True(PeerHangUp.HasHappened(socket));
    }
}
