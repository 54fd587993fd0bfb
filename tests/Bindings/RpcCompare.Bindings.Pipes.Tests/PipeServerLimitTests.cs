using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// The server's limits at and one past their boundaries: frames left unfinished or cut short,
/// oversized frames drained or closed, requests and replies of exactly the message limit, and the
/// connection limit (refusals answered, logged once per stretch, and past 64 of them, closed).
/// </summary>
public sealed class PipeServerLimitTests
{
    [Theory]
    [InlineData(3)] // inside the header
    [InlineData(7)] // inside the body
    public async Task AFrameLeftUnfinished_IsDroppedAfterTheFrameTimeout_AndLoggedOnce(int bytesSent)
    {
        await using var server = await TestPipeServer.StartAsync(o => o.FrameTimeout = TimeSpan.FromMilliseconds(300));
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);

        await raw.SendAsync(RawPipeConnection.Frame(10, (byte)OperationCode.EchoBytes, [1, 2])[..bytesSent]);

        Assert.True(await raw.IsClosedByServerAsync());
        Assert.Equal(["Debug RpcCompare.Bindings.Pipes.Server.PipeServer: Connection 1 left a frame unfinished for 0.3 s; dropped it"], await server.LoggedAsync("unfinished"));
    }

    [Fact]
    public async Task AClientThatStopsReading_IsClosedAfterTheFrameTimeout_AndLoggedOnce()
    {
        // 1 s: the same timer bounds reading the 1-MB request, which must not run out first on a loaded machine.
        await using var server = await TestPipeServer.StartAsync(o => o.FrameTimeout = TimeSpan.FromSeconds(1));
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);

        // A 1-MB echo whose reply is never read: more than the socket's buffers take, so the write stops part-way.
        await raw.SendAsync(RawPipeConnection.EchoFrame(new byte[1_000_000]));

        await Eventually.HoldsAsync(() => server.Log.Matching("did not take its reply").Count == 1, TimeSpan.FromSeconds(10), () => string.Join("\n", server.Log.Lines));
        Assert.Equal(["Debug RpcCompare.Bindings.Pipes.Server.PipeServer: Connection 1 did not take its reply within 1 s; closed it"], await server.LoggedAsync("its reply"));
        await using var other = await RawPipeConnection.ConnectAsync(server.Path);
        Assert.Equal(PipeFrame.Success, await other.PingAsync());
    }

    [Fact]
    public async Task AnIdleConnection_IsNotTimedOut_BetweenFrames()
    {
        await using var server = await TestPipeServer.StartAsync(o => o.FrameTimeout = TimeSpan.FromMilliseconds(200));
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);
        Assert.Equal(PipeFrame.Success, await raw.PingAsync());

        // Well past the frame timeout, with no frame begun: the connection is kept, and the next
        // frame gets the whole timeout for its body (the timer of the last frame was disarmed).
        await Task.Delay(600);

        await raw.SendAsync(RawPipeConnection.Frame(4, (byte)OperationCode.Increment, [41, 0, 0, 0]));
        var reply = await raw.ReadReplyBytesAsync();
        Assert.Equal((PipeFrame.Success, 42), (reply!.Value.Status, BitConverter.ToInt32(reply.Value.Body)));
        Assert.Empty(server.Log.Matching("unfinished"));
    }

    [Fact]
    public async Task AnOversizedFrameTooLargeToDrain_IsAnsweredClosedAndLoggedOnce()
    {
        await using var server = await TestPipeServer.StartAsync(o => (o.MaxMessageSize, o.DrainFactor) = (1000, 4));
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);

        await raw.SendAsync(RawPipeConnection.Frame(4001, (byte)OperationCode.EchoBytes, []));
        var reply = await raw.ReadReplyAsync();

        Assert.Equal(
            ((byte)RpcErrorCode.QuotaExceeded, "The request of 4001 bytes exceeds the pipes server's limit of 1000 bytes (Pipes:MaxMessageSize). The connection is closed."),
            (reply!.Value.Status, reply.Value.Message));
        Assert.True(await raw.IsClosedByServerAsync());
        Assert.Equal(["Debug RpcCompare.Bindings.Pipes.Server.PipeServer: Connection 1 sent a 4001-byte frame, over the limit; answered QuotaExceeded and closed it"],
            await server.LoggedAsync("over the limit"));
    }

    [Fact]
    public async Task AnOversizedFrameSmallEnoughToDrain_IsAnswered_AndTheConnectionKept()
    {
        await using var server = await TestPipeServer.StartAsync(o => (o.MaxMessageSize, o.DrainFactor) = (1000, 4));
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);

        // Exactly four times the limit: still read and dropped, so the client keeps its connection.
        await raw.SendAsync(RawPipeConnection.Frame(4000, (byte)OperationCode.EchoBytes, new byte[4000]));
        var reply = await raw.ReadReplyAsync();

        Assert.Equal(
            ((byte)RpcErrorCode.QuotaExceeded, "The request of 4000 bytes exceeds the pipes server's limit of 1000 bytes (Pipes:MaxMessageSize)."),
            (reply!.Value.Status, reply.Value.Message));
        Assert.Equal(PipeFrame.Success, await raw.PingAsync());
        Assert.Empty(server.Log.Matching("over the limit"));
    }

    [Fact]
    public async Task AfterADrainedFrame_AnIdleConnectionKeepsItsFrameTimeoutForTheNextBody()
    {
        await using var server = await TestPipeServer.StartAsync(o => (o.MaxMessageSize, o.FrameTimeout) = (1000, TimeSpan.FromMilliseconds(200)));
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);
        await raw.SendAsync(RawPipeConnection.Frame(2000, (byte)OperationCode.EchoBytes, new byte[2000]));
        Assert.Equal((byte)RpcErrorCode.QuotaExceeded, (await raw.ReadReplyAsync())!.Value.Status);

        // Idle past the frame timeout, then a frame with a body.
        await Task.Delay(600);
        await raw.SendAsync(RawPipeConnection.Frame(4, (byte)OperationCode.Increment, [1, 0, 0, 0]));
        var reply = await raw.ReadReplyBytesAsync();

        Assert.Equal((PipeFrame.Success, 2), (reply!.Value.Status, BitConverter.ToInt32(reply.Value.Body)));
    }

    [Fact]
    public async Task APeerLeavingInsideAHeader_IsATruncatedFrame_NotAStalledOne()
    {
        await using var server = await TestPipeServer.StartAsync(o => o.FrameTimeout = TimeSpan.FromSeconds(30));
        await using (var raw = await RawPipeConnection.ConnectAsync(server.Path))
        {
            await raw.SendAsync(RawPipeConnection.Frame(4, (byte)OperationCode.Increment, [1, 0, 0, 0])[..3]);
        }

        Assert.Single(await server.LoggedAsync("middle of a frame"));
        Assert.Empty(server.Log.Matching("unfinished"));
    }

    [Fact]
    public async Task ABodyReadInSeveralPieces_StopsAtItsFrame_WhenTheNextFrameFollowsInTheSameWrite()
    {
        // 100,000 bytes take two 64 KiB reads; the ping right behind them must not be read as body.
        await using var server = await TestPipeServer.StartAsync();
        await using var raw = await RawPipeConnection.ConnectAsync(server.Path);
        var payload = new byte[4 + 100_000];
        BitConverter.TryWriteBytes(payload, 100_000);
        payload[4] = 7;
        payload[^1] = 9;

        await raw.SendAsync([.. RawPipeConnection.Frame((uint)payload.Length, (byte)OperationCode.EchoBytes, payload), .. RawPipeConnection.Frame(0, (byte)OperationCode.Ping, [])]);
        var echo = await raw.ReadReplyBytesAsync();
        var ping = await raw.ReadReplyBytesAsync();

        // The recording service echoes the bytes reversed.
        Assert.Equal((PipeFrame.Success, 100_000, (byte)9, (byte)7), (echo!.Value.Status, BitConverter.ToInt32(echo.Value.Body), echo.Value.Body[4], echo.Value.Body[^1]));
        Assert.Equal(PipeFrame.Success, ping!.Value.Status);
    }

    [Fact]
    public async Task APeerLeavingWhileItsOversizedFrameIsDrained_IsATruncatedFrame()
    {
        await using var server = await TestPipeServer.StartAsync(o => o.MaxMessageSize = 1000);
        await using (var raw = await RawPipeConnection.ConnectAsync(server.Path))
        {
            await raw.SendAsync(RawPipeConnection.Frame(2000, (byte)OperationCode.EchoBytes, new byte[100]));
        }

        Assert.Single(await server.LoggedAsync("middle of a frame"));
    }

    [Fact]
    public async Task RequestsAndRepliesOfExactlyTheLimit_AreServed()
    {
        // EchoBytes of 996 bytes: a 1,000-byte request body and a 1,000-byte reply body.
        await using var server = await TestPipeServer.StartAsync(o => o.MaxMessageSize = 1000);
        var client = new PipesClientProvider(new PipesClientOptions { MaxMessageSize = 1000 }).Create<IPayloadService>(server.Path);

        var reply = await client.EchoBytesAsync(new BytesMessage { Data = new byte[996] }).Bounded();

        Assert.Equal(996, reply.Data.Length);
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    [Fact]
    public async Task AReplyOverTheServersLimit_IsQuotaExceeded_AndTheConnectionKept()
    {
        await using var server = await TestPipeServer.StartAsync(o => o.MaxMessageSize = 1000);
        var client = new PipesClientProvider().Create<IPayloadService>(server.Path);
        var request = new BytesMessage { Data = new byte[990] };

        // 990 bytes echoed with 6 more: a 1,000-byte reply body, exactly the limit.
        server.Services.EchoExtraBytes = 6;
        var atTheLimit = await client.EchoBytesAsync(request).Bounded();
        server.Services.EchoExtraBytes = 7;
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.EchoBytesAsync(request)).Bounded();
        server.Services.EchoExtraBytes = 0;
        var after = await client.EchoBytesAsync(request).Bounded();

        Assert.Equal(996, atTheLimit.Data.Length);
        Assert.Equal((RpcErrorCode.QuotaExceeded, "The reply of 1001 bytes exceeds the pipes server's limit of 1000 bytes (Pipes:MaxMessageSize)."), (error.Code, error.Message));
        Assert.Equal(990, after.Data.Length);
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    [Fact]
    public async Task RefusalsAtTheConnectionLimit_AreSummarised_NotLoggedOncePerRefusal()
    {
        var server = await TestPipeServer.StartAsync(o => (o.MaxConnections, o.FrameTimeout) = (1, TimeSpan.FromSeconds(30)));
        await using (server)
        {
            await using var served = await RawPipeConnection.ConnectAsync(server.Path);
            Assert.Equal(PipeFrame.Success, await served.PingAsync());

            for (var i = 0; i < 3; i++)
            {
                await using var refused = await RawPipeConnection.ConnectAsync(server.Path);
                Assert.Equal((byte)RpcErrorCode.QuotaExceeded, await refused.PingAsync());
            }
        }

        // Stopping writes the summary of the interval in progress: one line for the three.
        var line = Assert.Single(server.Log.Matching("refused"));
        Assert.Matches(@"^Warning RpcCompare\.Bindings\.Pipes\.Server\.PipeServer: Binding pipes, last \d+ s: refused 3 connections past its limit of 1 \(Pipes:MaxConnections\) \(answered QuotaExceeded: 3\)$", line);
    }

    [Fact]
    public async Task ARefusedConnectionThatSendsNothing_IsClosedAfterTheFrameTimeout()
    {
        await using var server = await TestPipeServer.StartAsync(o => (o.MaxConnections, o.FrameTimeout) = (1, TimeSpan.FromMilliseconds(300)));
        await using var served = await RawPipeConnection.ConnectAsync(server.Path);
        Assert.Equal(PipeFrame.Success, await served.PingAsync());
        await using var refused = await RawPipeConnection.ConnectAsync(server.Path);

        Assert.True(await refused.IsClosedByServerAsync());
        Assert.Equal(PipeFrame.Success, await served.PingAsync());
    }

    [Fact]
    public async Task PastTheLimitAnd64Refusals_AConnectionIsClosedWithoutAWord()
    {
        await using var server = await TestPipeServer.StartAsync(o => (o.MaxConnections, o.FrameTimeout) = (1, TimeSpan.FromSeconds(30)));
        var held = new List<RawPipeConnection> { await RawPipeConnection.ConnectAsync(server.Path) };
        Assert.Equal(PipeFrame.Success, await held[0].PingAsync());
        try
        {
            for (var i = 0; i < 64; i++)
            {
                held.Add(await RawPipeConnection.ConnectAsync(server.Path));
            }

            await using var closedAtOnce = await RawPipeConnection.ConnectAsync(server.Path);

            Assert.True(await closedAtOnce.IsClosedByServerAsync());
            // The 64th refusal still waits for its first request, and is told why.
            Assert.Equal((byte)RpcErrorCode.QuotaExceeded, await held[^1].PingAsync());
        }
        finally
        {
            foreach (var connection in held)
            {
                await connection.DisposeAsync();
            }
        }
    }
}
