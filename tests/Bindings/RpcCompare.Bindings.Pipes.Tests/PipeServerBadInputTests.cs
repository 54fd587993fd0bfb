using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Bindings.Telemetry;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// What the raw pipe server does with input a framework would have rejected for it. Each test runs
/// a well-behaved client at the same time and checks it was served throughout.
/// </summary>
public sealed class PipeServerBadInputTests : IAsyncLifetime
{
    private const int ServerLimit = 64 * 1024;
    private InProcessHost _host = null!;

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync(o =>
    {
        o.MaxMessageSize = ServerLimit;
        o.FrameTimeout = TimeSpan.FromMilliseconds(500);
    });

    public async Task DisposeAsync() => await _host.DisposeAsync();

    private SteadyClient StartSteadyClient() => SteadyClient.Start(() => new PipesClientProvider().Create<ICallShapeService>(_host.PipePath));

    [Fact]
    public async Task UnknownOperationCode_GetsInvalidArgument_AndConnectionStaysUsable()
    {
        var steady = StartSteadyClient();
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);

        await raw.SendAsync(RawPipeConnection.Frame(3, 0x7F, [1, 2, 3]));
        var reply = await raw.ReadReplyAsync();
        var pingStatus = await raw.PingAsync();

        Assert.Equal((byte)RpcErrorCode.InvalidArgument, reply!.Value.Status);
        Assert.Contains("Unknown operation code 0x7F", reply.Value.Message, StringComparison.Ordinal);
        Assert.Equal(PipeFrame.Success, pingStatus);
        Assert.True(await steady.StopAsync() > 0);
    }

    [Fact]
    public async Task MalformedBody_GetsInvalidArgument_AndConnectionStaysUsable()
    {
        var steady = StartSteadyClient();
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);

        // ReadDirectory whose path claims 1,000 bytes in a 6-byte body.
        await raw.SendAsync(RawPipeConnection.Frame(6, (byte)OperationCode.ReadDirectory, [0xE8, 0x03, 0, 0, (byte)'a', (byte)'b']));
        var reply = await raw.ReadReplyAsync();
        var pingStatus = await raw.PingAsync();

        Assert.Equal((byte)RpcErrorCode.InvalidArgument, reply!.Value.Status);
        Assert.Equal(PipeFrame.Success, pingStatus);
        Assert.True(await steady.StopAsync() > 0);
    }

    [Fact]
    public async Task ATracedRequestShorterThanItsContext_GetsInvalidArgument_AndConnectionStaysUsable()
    {
        var steady = StartSteadyClient();
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);

        await raw.SendAsync(RawPipeConnection.Frame(10, PipeFrame.TraceContextFlag | (byte)OperationCode.Ping, new byte[10]));
        var reply = await raw.ReadReplyAsync();
        var pingStatus = await raw.PingAsync();

        Assert.Equal((byte)RpcErrorCode.InvalidArgument, reply!.Value.Status);
        Assert.Equal("The request is malformed: a request flagged with a trace context is 10 bytes, shorter than the 26-byte context.", reply.Value.Message);
        Assert.Equal(PipeFrame.Success, pingStatus);
        Assert.True(await steady.StopAsync() > 0);
    }

    [Fact]
    public async Task ATracedRequestWhoseMessageIsExactlyTheLimit_IsServed_ItsContextNotCounted()
    {
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);
        // SendBytes: a 4-byte length and the bytes, ServerLimit in all, after a context (version 0, trace id, span id, sampled).
        var body = new byte[BinaryTraceContext.Size + ServerLimit];
        Random.Shared.NextBytes(body.AsSpan(1, 24));
        body[25] = 1;
        System.Buffers.Binary.BinaryPrimitives.WriteInt32LittleEndian(body.AsSpan(BinaryTraceContext.Size), ServerLimit - 4);

        await raw.SendAsync(RawPipeConnection.Frame((uint)body.Length, PipeFrame.TraceContextFlag | (byte)OperationCode.SendBytes, body));
        var reply = await raw.ReadReplyAsync();

        Assert.Equal(PipeFrame.Success, reply!.Value.Status);
        Assert.Equal(PipeFrame.Success, await raw.PingAsync());
    }

    [Fact]
    public async Task LengthPrefixOf2GB_GetsQuotaExceeded_AndConnectionIsClosed()
    {
        var steady = StartSteadyClient();
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);

        await raw.SendAsync(RawPipeConnection.Frame(int.MaxValue, (byte)OperationCode.EchoBytes, [0, 0, 0, 0]));
        var reply = await raw.ReadReplyAsync();

        Assert.Equal((byte)RpcErrorCode.QuotaExceeded, reply!.Value.Status);
        Assert.Contains("2147483647 bytes exceeds", reply.Value.Message, StringComparison.Ordinal);
        Assert.True(await raw.IsClosedByServerAsync());
        Assert.True(await steady.StopAsync() > 0);
    }

    [Fact]
    public async Task LengthPrefixOf4GB_IsNotReadAsNegative()
    {
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);

        await raw.SendAsync(RawPipeConnection.Frame(uint.MaxValue, (byte)OperationCode.Ping, []));
        var reply = await raw.ReadReplyAsync();

        Assert.Equal((byte)RpcErrorCode.QuotaExceeded, reply!.Value.Status);
        Assert.True(await raw.IsClosedByServerAsync());
    }

    [Fact]
    public async Task OverLimitRequestWithinDrainFactor_GetsQuotaExceeded_AndConnectionStaysUsable()
    {
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);
        var body = new byte[ServerLimit + 100];
        BitConverter.TryWriteBytes(body, body.Length - 4);

        var send = raw.SendAsync(RawPipeConnection.Frame((uint)body.Length, (byte)OperationCode.SendBytes, body));
        var reply = await raw.ReadReplyAsync();
        await send;
        var pingStatus = await raw.PingAsync();

        Assert.Equal((byte)RpcErrorCode.QuotaExceeded, reply!.Value.Status);
        Assert.Contains("Pipes:MaxMessageSize", reply.Value.Message, StringComparison.Ordinal);
        Assert.Equal(PipeFrame.Success, pingStatus);
    }

    [Fact]
    public async Task TruncatedFrameThenDisconnect_ServerKeepsServingOthers()
    {
        var steady = StartSteadyClient();
        await using (var raw = await RawPipeConnection.ConnectAsync(_host.PipePath))
        {
            // Promises 1,000 bytes, sends 10, hangs up.
            await raw.SendAsync(RawPipeConnection.Frame(1000, (byte)OperationCode.SendBytes, new byte[10]));
        }

        await using var next = await RawPipeConnection.ConnectAsync(_host.PipePath);

        Assert.Equal(PipeFrame.Success, await next.PingAsync());
        Assert.True(await steady.StopAsync() > 0);
    }

    [Fact]
    public async Task DisconnectInsideHeader_ServerKeepsServingOthers()
    {
        var steady = StartSteadyClient();
        await using (var raw = await RawPipeConnection.ConnectAsync(_host.PipePath))
        {
            await raw.SendAsync([0x05, 0x00]);
        }

        await using var next = await RawPipeConnection.ConnectAsync(_host.PipePath);

        Assert.Equal(PipeFrame.Success, await next.PingAsync());
        Assert.True(await steady.StopAsync() > 0);
    }

    [Fact]
    public async Task StalledFrame_IsDroppedAfterTheFrameTimeout_AndOthersAreServed()
    {
        var steady = StartSteadyClient();
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);

        // Promises 1,000 bytes, sends 10, then says nothing more while keeping the connection open.
        await raw.SendAsync(RawPipeConnection.Frame(1000, (byte)OperationCode.SendBytes, new byte[10]));

        Assert.True(await raw.IsClosedByServerAsync());
        Assert.True(await steady.StopAsync() > 0);
    }

    [Fact]
    public async Task Garbage_ServerAnswersOrClosesAndKeepsServingOthers()
    {
        var steady = StartSteadyClient();
        var garbage = new byte[16 * 1024];
        new Random(1234).NextBytes(garbage);
        await using (var raw = await RawPipeConnection.ConnectAsync(_host.PipePath))
        {
            try
            {
                await raw.SendAsync(garbage);
            }
            catch (IOException)
            {
                // The server may already have closed on an impossible length prefix: that is a pass.
            }
        }

        await using var next = await RawPipeConnection.ConnectAsync(_host.PipePath);

        Assert.Equal(PipeFrame.Success, await next.PingAsync());
        Assert.True(await steady.StopAsync() > 0);
    }

    [Fact]
    public async Task EmptyCallWithUnexpectedBody_GetsInvalidArgument()
    {
        await using var raw = await RawPipeConnection.ConnectAsync(_host.PipePath);

        await raw.SendAsync(RawPipeConnection.Frame(2, (byte)OperationCode.Ping, [1, 2]));
        var reply = await raw.ReadReplyAsync();

        Assert.Equal((byte)RpcErrorCode.InvalidArgument, reply!.Value.Status);
    }
}
