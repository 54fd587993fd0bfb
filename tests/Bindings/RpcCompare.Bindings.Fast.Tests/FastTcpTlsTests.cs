using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Bindings.Security;
using RpcCompare.ContractCorpus;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// fast-tcp in TLS (a host with --tls): what TLS changes in the binding itself. Parity, streams,
/// push, a wrongly pinned certificate and mutual TLS run it beside the other TCP bindings
/// (Client.Tests: TlsTests, MutualTlsTests).
/// </summary>
public sealed class FastTcpTlsTests : IDisposable
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);
    private readonly TemporaryDirectory _state = new();
    private readonly ServerCertificate _certificate;

    public FastTcpTlsTests()
    {
        _certificate = ServerCertificate.Load(new TlsOptions { Enabled = true }, _state.FullPath, ["localhost", "127.0.0.1"]);
    }

    public void Dispose() => _state.Dispose();

    [Fact]
    public async Task Calls_OfEveryForm_GoOverTls()
    {
        await using var server = await StartAsync();

        Assert.Equal(5.0, server.Client<ICalculator>(Trusting()).Add(2, 3));
        Assert.Equal(42, await server.Client<IValueTaskForms>(Trusting()).MultiplyAsync(6, 7));
        Assert.Equal(7, await server.Client<IProbe>(Trusting(FastTaskCalls.OnCallerThread)).EchoAsync(7));
        Assert.Matches(@"^anonymous at 127\.0\.0\.1:\d+ over fast-tcp$", server.Client<IProbe>(Trusting()).Caller());
    }

    [Fact]
    public async Task ConcurrentCalls_OnOneTlsConnection_AreEachAnswered_WhateverTheirSize()
    {
        await using var server = await StartAsync();
        var probe = server.Client<IProbe>(Trusting());
        var pending = probe.LaterAsync(1);
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(1), Settle, () => $"the held call never reached the service ({pending.Status})");

        // Replies of many TLS records each, and small ones, interleaved on the one multiplexed connection while a call is still held:
        // TLS reads records ahead of what the socket shows, so a reader that waited on the socket would miss some of these.
        var sizes = Enumerable.Range(0, 64).Select(static i => i % 4 == 0 ? 300_000 + i : i).ToArray();
        var replies = await Task.WhenAll(sizes.Select(size => probe.BytesAsync(size))).Bounded();
        var echoes = await Task.WhenAll(Enumerable.Range(0, 200).Select(probe.EchoAsync)).Bounded();

        Assert.Equal(sizes, replies.Select(static r => r.Length));
        Assert.Equal(Enumerable.Range(0, 200), echoes);
        Assert.False(pending.IsCompleted);
        server.Probe.Release(1);
        Assert.Equal(10, await pending.Bounded());
    }

    [Fact]
    public async Task APlaintextClient_IsNotServed_AndTlsClientsGoOn()
    {
        await using var server = await StartAsync();

        // Its Bind frame is no TLS handshake: the server closes (what the client reads first, an end or an alert, is the client's error).
        await Assert.ThrowsAnyAsync<Exception>(() => server.Client<IProbe>().EchoAsync(1)).Bounded();

        await Eventually.HoldsAsync(() => server.Log.Matching("closed: the TLS handshake failed: ").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
        Assert.Equal(3, server.Client<IProbe>(Trusting()).Echo(3));
    }

    [Fact]
    public async Task AHandshakeLeftUnfinished_IsClosedAfterTheHandshakeTimeout_WithoutHoldingUpOthers()
    {
        // 3 s: a real client's first handshake in a cold process (OpenSSL loaded, TLS code compiled) must fit in it.
        await using var server = await StartAsync(o => o.HandshakeTimeout = TimeSpan.FromSeconds(3));
        using var silent = new Socket(SocketType.Stream, ProtocolType.Tcp) { ReceiveTimeout = 20_000 };
        await silent.ConnectAsync(FastEndpoint.Parse(BindingNames.FastTcp, server.Address).EndPoint).Bounded();

        // Served while the silent connection's handshake is still waiting: it holds its own thread only.
        Assert.Equal(4, server.Client<IProbe>(Trusting()).Echo(4));

        // Nothing sent: the server gives up on the handshake and closes (0 bytes), long before the receive's own 20 s.
        Assert.Equal(0, silent.Receive(new byte[16]));
        await Eventually.HoldsAsync(() => server.Log.Matching("the TLS handshake took longer than 3 s").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
    }

    [Fact]
    public async Task AHandshakeTrickledByteByByte_IsClosedAfterTheHandshakeTimeout()
    {
        // Each byte comes well within the timeout, so a timeout per receive would never fire: the deadline is for the whole handshake.
        await using var server = await StartAsync(o => o.HandshakeTimeout = TimeSpan.FromSeconds(1));
        using var trickle = new Socket(SocketType.Stream, ProtocolType.Tcp);
        await trickle.ConnectAsync(FastEndpoint.Parse(BindingNames.FastTcp, server.Address).EndPoint).Bounded();

        // A handshake record's header announcing 512 bytes, then a byte every 200 ms: 100 s for the whole record.
        trickle.Send([0x16, 0x03, 0x01, 0x02, 0x00]);
        var closed = false;
        for (var i = 0; i < 100 && !closed; i++)
        {
            // Waits up to 200 ms for the server's close (returning as soon as it comes), else sends the next byte.
            closed = trickle.Poll(200_000, SelectMode.SelectRead) || !TrySend(trickle);
        }

        Assert.True(closed, "the server kept a handshake trickled for 20 s open");
        await Eventually.HoldsAsync(() => server.Log.Matching("the TLS handshake took longer than 1 s").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
    }

    [Fact]
    public async Task ACallLongerThanTheFrameTimeout_KeepsItsTlsConnection()
    {
        // The server's receive on the held call's connection times out every 100 ms while the call is pending; each
        // timeout interrupts a TLS read, which must leave the stream usable for the reply and the calls after it.
        await using var server = await StartAsync(o => { o.IdleTimeout = TimeSpan.FromSeconds(1); o.FrameTimeout = TimeSpan.FromMilliseconds(100); });
        var probe = server.Client<IProbe>(Trusting());
        var call = probe.LaterAsync(3);
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(3), Settle, () => $"the call never reached the service ({call.Status})");

        // Another connection, quiet after one call: once it is closed as idle (1 s), the held call's has been through ten
        // timeouts. Its client is kept alive until then: collected, its socket's finalizer would close the connection
        // first (a reset, not idle), as it once did with the whole project's tests running.
        var quiet = server.Client<IProbe>(Trusting());
        Assert.Equal(1, quiet.Echo(1));
        await Eventually.HoldsAsync(() => server.Log.Matching("closed: idle").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
        GC.KeepAlive(quiet);

        server.Probe.Release(3);
        Assert.Equal(30, await call.Bounded());
        Assert.Equal(5, await probe.EchoAsync(5).Bounded());
    }

    [Fact]
    public async Task AnIdleTlsConnection_IsClosed_AndTheClientReconnectsOnItsNextCall()
    {
        // 500 ms, not less: a new connection's first frame must come within it after its handshake, on a loaded machine too.
        await using var server = await StartAsync(o => { o.IdleTimeout = TimeSpan.FromMilliseconds(500); o.FrameTimeout = TimeSpan.FromMilliseconds(100); });
        var options = Trusting();
        options.IdleCheckAfter = TimeSpan.Zero;
        var probe = server.Client<IProbe>(options);
        Assert.Equal(1, await probe.EchoAsync(1).Bounded());
        Assert.Equal(2, probe.Echo(2));

        await Eventually.HoldsAsync(() => server.Log.Matching("closed: idle").Count == 2, Settle, () => string.Join("\n", server.Log.Lines));

        Assert.Equal(3, await probe.EchoAsync(3).Bounded());
        Assert.Equal(4, probe.Echo(4));
    }

    private static bool TrySend(Socket socket)
    {
        try
        {
            return socket.Send(new byte[1]) == 1;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    private FastClientOptions Trusting(FastTaskCalls calls = FastTaskCalls.Multiplexed) =>
        new() { Tls = new ClientTlsOptions { ServerCertificateThumbprint = _certificate.Thumbprint }, TaskCalls = calls };

    private Task<TestFastServer> StartAsync(Action<FastTcpBindingOptions>? configure = null) =>
        TestFastServer.StartTcpAsync(configure, new TransportSecurity(_certificate, allowInsecure: false));
}
