using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

public sealed class PipeClientTests
{
    [Fact]
    public async Task RequestOverClientLimit_FailsWithQuotaExceeded_AndConnectionStaysUsable()
    {
        await using var host = await InProcessHost.StartAsync();
        var client = new PipesClientProvider(new PipesClientOptions { MaxMessageSize = 1000 }).Create<IPayloadService>(host.PipePath);
        await client.SendBytesAsync(new BytesMessage { Data = new byte[1] }).Bounded();

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.SendBytesAsync(new BytesMessage { Data = new byte[2000] })).Bounded();
        var reply = await client.SendBytesAsync(new BytesMessage { Data = new byte[500] }).Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("nothing was sent", error.Message, StringComparison.Ordinal);
        Assert.Equal(500, reply.Length);
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    [Fact]
    public async Task RequestOverServerLimit_FailsWithServersQuotaError()
    {
        await using var host = await InProcessHost.StartAsync(o => o.MaxMessageSize = 10_000);
        var client = new PipesClientProvider().Create<IPayloadService>(host.PipePath);

        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.EchoBytesAsync(new BytesMessage { Data = new byte[20_000] })).Bounded();
        var reply = await client.SendBytesAsync(new BytesMessage { Data = new byte[10] }).Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("server's limit", error.Message, StringComparison.Ordinal);
        Assert.Equal(10, reply.Length);
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    [Fact]
    public async Task ReplyOverClientLimit_FailsWithQuotaExceeded()
    {
        await using var host = await InProcessHost.StartAsync();
        var client = new PipesClientProvider(new PipesClientOptions { MaxMessageSize = 100 }).Create<IFileService>(host.PipePath);

        // A directory listing of 100 entries is far more than 100 bytes.
        var error = await Assert.ThrowsAsync<RpcServiceException>(() => client.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "files" })).Bounded();

        Assert.Equal(RpcErrorCode.QuotaExceeded, error.Code);
        Assert.Contains("client's limit", error.Message, StringComparison.Ordinal);
        await ((IAsyncDisposable)client).DisposeAsync();
    }

    [Fact]
    public async Task NoServer_FailsWithClearIOException()
    {
        using var directory = new TemporaryDirectory();
        var client = new PipesClientProvider(new PipesClientOptions { ConnectTimeout = TimeSpan.FromMilliseconds(200) })
            .Create<IFileService>(directory.PathFor("nobody.sock"));

        var error = await Assert.ThrowsAsync<IOException>(() => client.PingAsync(new PingRequest())).Bounded();

        Assert.Contains("Could not connect to the pipes server", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    // Named for what it checks: 16 clients at once, each on its own connection, each answered its own
    // calls. That the server does not serve connections one after another is shown by the bad-input
    // tests, where a connection stalled mid-frame does not hold up a steady client.
    public async Task ManyClients_AtOnce_EachOnItsOwnConnection_GetTheirOwnAnswers()
    {
        await using var host = await InProcessHost.StartAsync();
        var provider = new PipesClientProvider();

        var results = await Task.WhenAll(Enumerable.Range(0, 16).Select(async c =>
        {
            var client = provider.Create<ICallShapeService>(host.PipePath);
            var sum = 0;
            for (var i = 0; i < 50; i++)
            {
                sum += (await client.IncrementAsync(new IntMessage { Value = c * 1000 + i })).Value;
            }

            await ((IAsyncDisposable)client).DisposeAsync();
            return sum;
        })).Bounded();

        Assert.Equal(Enumerable.Range(0, 16).Select(c => Enumerable.Range(0, 50).Sum(i => c * 1000 + i + 1)), results);
    }

    [Fact]
    public async Task Stop_RemovesTheSocketFile()
    {
        var host = await InProcessHost.StartAsync();
        var path = host.PipePath;
        Assert.True(File.Exists(path));

        await host.DisposeAsync();

        Assert.False(File.Exists(path));
    }
}
