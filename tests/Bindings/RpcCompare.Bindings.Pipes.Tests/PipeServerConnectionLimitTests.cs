using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// Pipes:MaxConnections: a connection past the limit is told why and closed, the connections
/// being served are not disturbed, and room frees up as they close.
/// </summary>
public sealed class PipeServerConnectionLimitTests : IAsyncLifetime
{
    private const int Limit = 2;
    private InProcessHost _host = null!;

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync(o => o.MaxConnections = Limit);

    public async Task DisposeAsync() => await _host.DisposeAsync();

    [Fact]
    public async Task ConnectionPastTheLimit_GetsQuotaExceededAndIsClosed_WhileTheOthersAreServed()
    {
        await using var first = await ServedConnectionAsync();
        await using var second = await ServedConnectionAsync();
        await using var third = await RawPipeConnection.ConnectAsync(_host.PipePath);

        await third.SendAsync(RawPipeConnection.Frame(0, (byte)OperationCode.Ping, []));
        var refusal = await third.ReadReplyAsync();

        Assert.Equal((byte)RpcErrorCode.QuotaExceeded, refusal!.Value.Status);
        Assert.Contains("limit of 2 connections (Pipes:MaxConnections)", refusal.Value.Message, StringComparison.Ordinal);
        Assert.True(await third.IsClosedByServerAsync());
        Assert.Equal(PipeFrame.Success, await first.PingAsync());
        Assert.Equal(PipeFrame.Success, await second.PingAsync());
    }

    [Fact]
    public async Task TypedClientPastTheLimit_FailsWithTheServersReason()
    {
        await using var first = await ServedConnectionAsync();
        await using var second = await ServedConnectionAsync();
        var client = new PipesClientProvider().Create<ICallShapeService>(_host.PipePath);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.VoidCallAsync()).Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("Pipes:MaxConnections", error.Message, StringComparison.Ordinal);
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    [Fact]
    public async Task ConnectionsThatClose_MakeRoomForNewOnes()
    {
        await using var kept = await ServedConnectionAsync();
        await (await ServedConnectionAsync()).DisposeAsync();

        // The server learns of the close when its read ends: a new connection may still be refused for a moment.
        byte? status = null;
        for (var attempt = 0; attempt < 50 && status != PipeFrame.Success; attempt++)
        {
            await using var next = await RawPipeConnection.ConnectAsync(_host.PipePath);
            status = await next.PingAsync();
            if (status != PipeFrame.Success)
            {
                Assert.Equal((byte)RpcErrorCode.QuotaExceeded, status);
                await Task.Delay(100);
            }
        }

        Assert.Equal(PipeFrame.Success, status);
        Assert.Equal(PipeFrame.Success, await kept.PingAsync());
    }

    // A connection the server has taken: it has answered a ping on it.
    private async Task<RawPipeConnection> ServedConnectionAsync()
    {
        var connection = await RawPipeConnection.ConnectAsync(_host.PipePath);
        Assert.Equal(PipeFrame.Success, await connection.PingAsync());
        return connection;
    }
}
