using System.Net;
using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Server;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Bindings.Security;
using RpcCompare.ContractCorpus;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// fast-tcp: the same frames on a TCP port. What differs from fast-uds is tested here (the address,
/// the caller, no Nagle delay, where it may listen; TLS in <see cref="FastTcpTlsTests"/>); the parity,
/// corpus, quota, caller and flood tests run it beside every other binding.
/// </summary>
public sealed class FastTcpTests
{
    [Fact]
    public async Task Calls_GoOverTcpOnLoopback_AndTheServiceSeesTheCallersAddress()
    {
        await using var server = await TestFastServer.StartTcpAsync();

        Assert.Matches(@"^tcp://127\.0\.0\.1:\d+$", server.Address);
        Assert.Equal(5.0, server.Client<ICalculator>().Add(2, 3));
        Assert.Equal(42, await server.Client<IValueTaskForms>().MultiplyAsync(6, 7));
        Assert.Matches(@"^anonymous at 127\.0\.0\.1:\d+ over fast-tcp$", server.Client<IProbe>().Caller());
    }

    [Fact]
    public void AClientSocket_SendsEachFrameAtOnce_WithoutNaglesDelay()
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1);

        using var connection = FastEndpoint.Parse(BindingNames.FastTcp, $"tcp://{listener.LocalEndPoint}").Connect();

        Assert.True(connection.Socket.NoDelay);
    }

    [Fact]
    public async Task Garbage_ClosesTheConnection()
    {
        await using var server = await TestFastServer.StartTcpAsync();

        Assert.True(await RawSocket.GarbageIsRejectedAsync(server.Address));
        Assert.Equal(5.0, server.Client<ICalculator>().Add(2, 3));
    }

    [Fact]
    public async Task EveryAddress_WithoutTls_IsRefused_UnlessPlaintextIsAllowed()
    {
        var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => TestFastServer.StartTcpAsync(o => o.ListenAddress = "0.0.0.0"));
        Assert.StartsWith("fast-tcp would listen on 0.0.0.0 (FastTcp:ListenAddress) without TLS. Start the host with --tls", refused.Message, StringComparison.Ordinal);

        // Allowed on purpose: it listens on every address and publishes the one that reaches it from this machine.
        await using var server = await TestFastServer.StartTcpAsync(o => o.ListenAddress = "0.0.0.0", new TransportSecurity(null, allowInsecure: true));
        Assert.Matches(@"^tcp://127\.0\.0\.1:\d+$", server.Address);
        Assert.Equal(5.0, server.Client<ICalculator>().Add(2, 3));
    }

    [Theory]
    [InlineData("localhost", "FastTcp:ListenAddress must be an IP address")]
    [InlineData("", "FastTcp:ListenAddress must be an IP address")]
    public async Task AListenAddressThatIsNotAnIpAddress_IsRefused(string address, string expected)
    {
        var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => TestFastServer.StartTcpAsync(o => o.ListenAddress = address));

        Assert.StartsWith(expected, refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    public async Task AHandshakeTimeoutThatIsNotPositive_IsRefused(int seconds)
    {
        var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => TestFastServer.StartTcpAsync(o => o.HandshakeTimeout = TimeSpan.FromSeconds(seconds)));

        Assert.StartsWith("FastTcp:HandshakeTimeout must be positive", refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(65536)]
    public async Task APortOutOfRange_IsRefused(int port)
    {
        var refused = await Assert.ThrowsAsync<InvalidOperationException>(() => TestFastServer.StartTcpAsync(o => o.Port = port));

        Assert.Equal($"FastTcp:Port must be from 0 (a free port) to 65535; got {port}.", refused.Message);
    }

    [Fact]
    public void Addresses_OfEveryKind_AreRead()
    {
        Assert.Equal(new IPEndPoint(IPAddress.Loopback, 5000), FastEndpoint.Parse(BindingNames.FastTcp, "tcp://127.0.0.1:5000").EndPoint);
        Assert.Equal(new IPEndPoint(IPAddress.IPv6Loopback, 5001), FastEndpoint.Parse(BindingNames.FastTcp, "tcp://[::1]:5001").EndPoint);
        Assert.Equal(new DnsEndPoint("host", 5002), FastEndpoint.Parse(BindingNames.FastTcp, "tcp://host:5002").EndPoint);
        Assert.Equal("fast-tcp at tcp://host:5002", FastEndpoint.Parse(BindingNames.FastTcp, "tcp://host:5002").ToString());
    }

    [Fact]
    public async Task TheServer_SendsEachReplyAtOnce_WithoutNaglesDelay()
    {
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1);
        using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await client.ConnectAsync(listener.LocalEndPoint!).Bounded();
        using var accepted = await listener.AcceptAsync().Bounded();
        using var incidents = new Limits.ConnectionIncidents(BindingNames.FastTcp, "1", Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance);

        var fastTcp = new FastTcpListener(new FastTcpBindingOptions(), TransportSecurity.Plaintext);
        using var transport = fastTcp.Transport(accepted);
        var (caller, denied) = fastTcp.Accept(transport, incidents);

        Assert.True(accepted.NoDelay);
        Assert.Null(denied);
        Assert.Equal(client.LocalEndPoint!.ToString(), caller.RemoteAddress);
    }
}
