using RpcCompare.Bindings.Pipes.Client;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// Pipes:IdleTimeout: a connection that sends no request for that long is closed by the server, as
/// the other bindings close theirs; the typed client notices before reusing a connection the server
/// closed, and reconnects instead of failing the call.
/// </summary>
public sealed class PipeServerIdleTimeoutTests : IAsyncLifetime
{
    private InProcessHost _host = null!;

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync(o => o.IdleTimeout = TimeSpan.FromSeconds(1));

    public async Task DisposeAsync() => await _host.DisposeAsync();

    [Fact]
    public async Task AConnectionThatSendsNothing_IsClosedByTheServer()
    {
        await using var idle = await RawPipeConnection.ConnectAsync(_host.PipePath);

        Assert.True(await idle.IsClosedByServerAsync());
    }

    [Fact]
    public async Task ATypedClientWhoseConnectionTheServerClosedForIdling_Reconnects_AndItsCallIsServed()
    {
        var client = new PipesClientProvider().Create<ICallShapeService>(_host.PipePath);
        try
        {
            Assert.Equal(2, (await client.IncrementAsync(new IntMessage { Value = 1 }).Bounded()).Value);

            // Witnesses opened after the client's last call. Once the first is closed for idling, the
            // client's connection (idle for longer) is due too, but each connection's timer closes its
            // own, so on a busy machine the client's close may still be under way (a call sent then is
            // reset: CI, 2026-11-27). The second witness is opened only then and lives a whole idle
            // timeout, so by its close the client's connection has long been closed.
            for (var i = 0; i < 2; i++)
            {
                await using var witness = await RawPipeConnection.ConnectAsync(_host.PipePath);
                Assert.True(await witness.IsClosedByServerAsync());
            }

            Assert.Equal(3, (await client.IncrementAsync(new IntMessage { Value = 2 }).Bounded()).Value);
        }
        finally
        {
            await ((IAsyncDisposable)client).DisposeAsync();
        }
    }

    [Fact]
    public async Task ATypedClientIdleForLessThanTheIdleTimeout_KeepsItsConnection_ThroughTheCheck()
    {
        await using var host = await InProcessHost.StartAsync();
        // No threshold: every call checks its connection first.
        var client = new PipesClientProvider(new PipesClientOptions { IdleCheckAfter = TimeSpan.Zero }).Create<ICallShapeService>(host.PipePath);
        try
        {
            Assert.Equal(2, (await client.IncrementAsync(new IntMessage { Value = 1 }).Bounded()).Value);

            // Had the check disturbed the open connection (a shutdown through the borrowed handle), this call would fail on it.
            Assert.Equal(3, (await client.IncrementAsync(new IntMessage { Value = 2 }).Bounded()).Value);
        }
        finally
        {
            await ((IAsyncDisposable)client).DisposeAsync();
        }
    }
}
