using System.Buffers.Binary;
using System.Diagnostics;
using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>The server's side of the protocol: pending calls, limits, timeouts and bytes no client library would send.</summary>
public sealed class FastServerTests
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task APendingCall_DoesNotHoldUpTheConnection_AndRepliesComeInTheOrderCallsFinish()
    {
        await using var server = await TestFastServer.StartAsync();
        using var raw = new RawFastConnection(server.Path);
        var ids = raw.Bind<IProbe>();

        raw.Request(ids["Later"], 1, new LaterMessage { Key = 4 });
        raw.Request(ids["Later"], 2, new LaterMessage { Key = 5 });
        raw.Request(ids["Echo"], 3, new EchoMessage { Value = 9 });
        var first = raw.Read();
        server.Probe.Release(5);
        var second = raw.Read();
        server.Probe.Release(4);
        var third = raw.Read();

        Assert.Equal([3u, 2u, 1u], new[] { first, second, third }.Select(f => f.Header.CallId));
        Assert.All(new[] { first, second, third }, f => Assert.Equal(FrameKind.Reply, f.Header.Kind));
    }

    [Fact]
    public async Task Garbage_ClosesThatConnection_CountedOnce_WhileOthersAreServed()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>();
        Assert.Equal(1, probe.Echo(1));

        Assert.True(await RawSocket.GarbageIsRejectedAsync(server.Path));

        Assert.Equal(2, probe.Echo(2));
        await Eventually.HoldsAsync(() => server.Log.Matching("Connection 2 closed").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
        Assert.Contains("not one of the protocol's", server.Log.Matching("Connection 2 closed")[0], StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0x8000_0000u)]
    [InlineData(0xFFFF_FFFFu)]
    public async Task AHugeLengthPrefix_IsAnsweredQuotaExceededAndClosed_NothingAllocated(uint length)
    {
        await using var server = await TestFastServer.StartAsync();
        using var raw = new RawFastConnection(server.Path);
        var header = new byte[FrameHeader.Size];
        BinaryPrimitives.WriteUInt32LittleEndian(header, length);
        header[4] = (byte)FrameKind.Request;
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(8), 7);

        raw.Send(header);
        var (answer, body) = raw.Read();

        // For the connection (id 0), which closes: the client fails its call and drops the connection.
        Assert.Equal((FrameKind.Error, 0u), (answer.Kind, answer.CallId));
        var error = Body.ReadProtocol<ErrorBody>(body);
        Assert.Equal(RpcErrorCode.QuotaExceeded, (RpcErrorCode)error.Code);
        Assert.Contains($"{length - 8:#,0} bytes, over the server's limit of 16,777,216 bytes (FastUds:MaxMessageSize)", error.Message, StringComparison.Ordinal);
        Assert.Null(raw.ReadOrClosed());
    }

    [Fact]
    public async Task AnOverLimitRequest_IsDrainedWhileTheClientStillSendsIt_SoItsSendDoesNotFailBeforeItReadsWhy()
    {
        await using var server = await TestFastServer.StartAsync(o => o.MaxMessageSize = 1000);
        using var raw = new RawFastConnection(server.Path);
        const int bodyLength = 8 * 1024 * 1024;
        var header = new byte[FrameHeader.Size];
        BinaryPrimitives.WriteUInt32LittleEndian(header, bodyLength + 8);
        header[4] = (byte)FrameKind.Request;
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(8), 7);

        // Far more than both sockets' buffers hold: had the server closed after the header, this send would fail (EPIPE).
        raw.Send(header);
        raw.Send(new byte[bodyLength]);
        var (answer, body) = raw.Read();

        Assert.Equal((FrameKind.Error, 0u), (answer.Kind, answer.CallId));
        Assert.Equal(RpcErrorCode.QuotaExceeded, (RpcErrorCode)Body.ReadProtocol<ErrorBody>(body).Code);
        raw.Socket.Shutdown(SocketShutdown.Send);
        Assert.Null(raw.ReadOrClosed());
    }

    [Fact]
    public async Task ARequestOverTheServersLimit_ReachesTheCallerAsQuotaExceeded()
    {
        await using var server = await TestFastServer.StartAsync(o => o.MaxMessageSize = 1000);

        var probe = server.Client<IProbe>();

        var error = Assert.Throws<RpcServiceException>(() => probe.Send(new string('x', 5000)));

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("over the server's limit of 1,000 bytes", error.Message, StringComparison.Ordinal);
        // The server closed that connection; the client dropped it rather than pooling it.
        Assert.Equal("next", probe.Send("next"));
    }

    [Fact]
    public async Task ARequestOverTheClientsLimit_IsRefusedBeforeAnythingIsSent()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>(new FastClientOptions { MaxMessageSize = 100 });

        var error = Assert.Throws<RpcServiceException>(() => probe.Send(new string('x', 500)));

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.EndsWith("nothing was sent.", error.Message, StringComparison.Ordinal);
        Assert.Equal("ok", probe.Send("ok"));
    }

    [Fact]
    public async Task AReplyOverTheClientsLimit_IsQuotaExceeded_AndTheNextCallWorks()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>(new FastClientOptions { MaxMessageSize = 1000 });

        var error = Assert.Throws<RpcServiceException>(() => probe.Bytes(5000));

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("over the client's limit of 1,000 bytes", error.Message, StringComparison.Ordinal);
        Assert.Equal(10, probe.Bytes(10).Length);
    }

    [Fact]
    public async Task AConnectionPastTheLimit_IsToldWhy_AndTheOthersAreServed()
    {
        await using var server = await TestFastServer.StartAsync(o => o.MaxConnections = 1);
        using var holder = new RawFastConnection(server.Path);
        holder.Bind<IProbe>();

        var refused = Assert.Throws<RpcServiceException>(() => server.Client<IProbe>().Echo(1));

        Assert.Equal(RpcErrorCode.QuotaExceeded, refused.Code);
        Assert.Contains("limit of 1 connections (FastUds:MaxConnections)", refused.Message, StringComparison.Ordinal);
        Assert.NotEqual(0, holder.Bind<IProbe>()["Echo"]);
    }

    [Fact]
    public async Task AFrameLeftUnfinished_IsClosedAfterTheFrameTimeout()
    {
        await using var server = await TestFastServer.StartAsync(o => o.FrameTimeout = TimeSpan.FromMilliseconds(300));
        using var raw = new RawFastConnection(server.Path);
        var header = new byte[FrameHeader.Size];
        new FrameHeader(FrameKind.Request, 16, 1, 100).Write(header);

        raw.Send([.. header, .. new byte[10]]);

        Assert.Null(raw.ReadOrClosed());
        await Eventually.HoldsAsync(() => server.Log.Matching("stalled inside a frame").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
    }

    [Fact]
    public async Task AClientThatStopsReading_IsClosedAfterTheFrameTimeout_AndOthersAreServed()
    {
        await using var server = await TestFastServer.StartAsync(o => o.FrameTimeout = TimeSpan.FromMilliseconds(300));
        using var raw = new RawFastConnection(server.Path);
        var bytes = raw.Bind<IProbe>()["Bytes"];

        // Two 4-MB replies asked for and never read: the socket's buffers take a fraction of one, and the server's send stops there.
        raw.Request(bytes, 2, new EchoMessage { Value = 4_000_000 });
        raw.Request(bytes, 3, new EchoMessage { Value = 4_000_000 });

        await Eventually.HoldsAsync(() => server.Log.Matching("stopped reading: a send made no progress for 0.3 s (FastUds:FrameTimeout)").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
        await Eventually.HoldsAsync(() => server.Server.OpenConnections == 0, Settle, () => $"{server.Server.OpenConnections} connections open");
        Assert.Equal(5, server.Client<IProbe>().Echo(5));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task AClientReadingALargeReplySlowly_ButSteadily_IsNotCut(bool tcp)
    {
        await using var server = tcp
            ? await TestFastServer.StartTcpAsync(o => o.FrameTimeout = TimeSpan.FromSeconds(1))
            : await TestFastServer.StartAsync(o => o.FrameTimeout = TimeSpan.FromSeconds(1));
        using var raw = new RawFastConnection(server.Address);
        var bytes = raw.Bind<IProbe>()["Bytes"];
        raw.Request(bytes, 2, new EchoMessage { Value = 4_000_000 });

        // 128 KB every 50 ms, on a thread of its own (not the pool's, which the suite's blocking calls can starve): the
        // reply takes about 1.6 s, more than the frame timeout, far more than the socket buffers hold, but no second
        // passes without progress.
        var received = 0L;
        var reader = new Thread(() =>
        {
            var buffer = new byte[128 * 1024];
            int read;
            while (received < 4_000_000 && (read = raw.Socket.Receive(buffer)) > 0)
            {
                received += read;
                Thread.Sleep(50);
            }
        }) { IsBackground = true };
        reader.Start();
        await Task.Run(() => reader.Join(Settle)).Bounded();

        Assert.True(received >= 4_000_000, $"the server closed the connection after {received:#,0} bytes: {string.Join("\n", server.Log.Lines)}");
        Assert.Empty(server.Log.Matching("stopped reading"));
        Assert.Equal(1, server.Server.OpenConnections);
    }

    [Fact]
    public async Task AnIdleConnection_IsClosed_AndTheClientReconnectsOnItsNextCall()
    {
        await using var server = await TestFastServer.StartAsync(o => { o.IdleTimeout = TimeSpan.FromMilliseconds(200); o.FrameTimeout = TimeSpan.FromMilliseconds(100); });
        var probe = server.Client<IProbe>(new FastClientOptions { IdleCheckAfter = TimeSpan.Zero });
        Assert.Equal(1, probe.Echo(1));

        await Eventually.HoldsAsync(() => server.Log.Matching("closed: idle").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));

        Assert.Equal(2, probe.Echo(2));
    }

    [Fact]
    public async Task ACallLongerThanTheIdleTimeout_KeepsItsConnection()
    {
        // 1 s, not less: with the whole project's tests running on two cores, a new connection's first frame (its Bind)
        // was once later than 200 ms, so the server rightly closed it as idle before the call was written.
        await using var server = await TestFastServer.StartAsync(o => { o.IdleTimeout = TimeSpan.FromSeconds(1); o.FrameTimeout = TimeSpan.FromMilliseconds(100); });
        var probe = server.Client<IProbe>();
        var call = Task.Run(() => probe.LaterAsync(3));
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(3), Settle, () => $"the call never reached the service (the call: {call.Status} {call.Exception?.InnerException?.Message})");

        // A connection opened after the call was dispatched, with nothing in flight: once the server has closed it
        // as idle, the call's connection has been quiet at least as long.
        using (var idle = new RawFastConnection(server.Path))
        {
            await Eventually.HoldsAsync(() => server.Log.Matching("closed: idle").Count == 1, Settle, () => string.Join("\n", server.Log.Lines));
        }

        server.Probe.Release(3);

        // Had the server closed the call's connection while it was pending, the answer would be lost (an IOException here).
        Assert.Equal(30, await call.Bounded());
        var answered = Stopwatch.StartNew();

        // The idle time counts from the answer: the connection is closed as idle a whole timeout later, not at the next
        // 100-ms wake-up (counted from the request, more than a second ago), where it raced the client's next call.
        // Half the timeout leaves room for the answer's own way to the client on a loaded machine.
        await Eventually.HoldsAsync(() => server.Log.Matching("closed: idle").Count == 2, Settle, () => string.Join("\n", server.Log.Lines));
        Assert.True(answered.Elapsed >= TimeSpan.FromMilliseconds(500), $"closed as idle {answered.ElapsedMilliseconds} ms after its answer, with an idle timeout of 1 s");
    }

    /// <summary>The probe's Later request: one int field, as the envelope carries it.</summary>
    [ProtoBuf.ProtoContract]
    private sealed class LaterMessage
    {
        [ProtoBuf.ProtoMember(1)]
        public int Key { get; set; }
    }

    [ProtoBuf.ProtoContract]
    private sealed class EchoMessage
    {
        [ProtoBuf.ProtoMember(1)]
        public int Value { get; set; }
    }
}
