using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.ContractCorpus;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// A waiter spins only when nothing else of its side is busy: with several calls on two cores a
/// spinner holds the core another call needs (p99 2.1-2.4 ms at 16-64 clients before this rule).
/// Each side is tested with the other side's spin off, so the process-wide counters see one side only.
/// </summary>
[Collection(nameof(SpinBeforeBlockingTests))]
public sealed class SpinFairnessTests : IAsyncLifetime
{
    private static readonly TimeSpan Settle = SpinnersAlone.Settle;
    private static readonly TimeSpan LongSpin = TimeSpan.FromMilliseconds(100);

    [Fact]
    public async Task TheClient_SpinsForItsOnlyCallInFlight_AndNotForASecond()
    {
        await using var server = await TestFastServer.StartAsync(o => o.SpinWait = TimeSpan.Zero);
        // The blocking path's reader: a Task form on the caller's thread, as a synchronous call would.
        var probe = server.Client<IProbe>(new FastClientOptions { SpinWait = LongSpin, TaskCalls = FastTaskCalls.OnCallerThread });
        // A first call opens (and binds) the pool's connection, and a waiter left by an earlier test ends its spin.
        Assert.Equal(3, probe.Echo(3));
        await SpinnersAlone.NoneSpinningAsync();
        var startedBefore = SpinBeforeBlocking.Started;

        var first = Task.Run(() => probe.LaterAsync(1));
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(1), Settle, () => "the first call never reached the service");
        // Alone in flight, its reader spins (until its budget runs out: the service holds the reply).
        await Eventually.HoldsAsync(() => SpinBeforeBlocking.Started == startedBefore + 1 && SpinBeforeBlocking.Spinning == 0, Settle,
            () => $"{SpinBeforeBlocking.Started - startedBefore} spins started, {SpinBeforeBlocking.Spinning} spinning, {SpinBeforeBlocking.Declined} declined, {FastConnectionPool.CallsInFlight.Count} in flight");
        Assert.Equal(1, FastConnectionPool.CallsInFlight.Count);

        var declinedBefore = SpinBeforeBlocking.Declined;
        var second = Task.Run(() => probe.LaterAsync(2));
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(2), Settle, () => "the second call never reached the service");
        await Eventually.HoldsAsync(() => SpinBeforeBlocking.Declined > declinedBefore, Settle, () => "the second call's reader was never told to block");
        Assert.Equal(2, FastConnectionPool.CallsInFlight.Count);

        server.Probe.Release(2);
        Assert.Equal(20, await second.WaitAsync(Settle));
        server.Probe.Release(1);
        Assert.Equal(10, await first.WaitAsync(Settle));
        Assert.Equal(startedBefore + 1, SpinBeforeBlocking.Started);
        Assert.Equal(0, FastConnectionPool.CallsInFlight.Count);
    }

    [Fact]
    public async Task TheMultiplexedReader_DoesNotSpinWithSeveralCallsInFlight_AndDoesOnceOneIsLeft()
    {
        await using var server = await TestFastServer.StartAsync(o => o.SpinWait = TimeSpan.Zero);
        var probe = server.Client<IProbe>(new FastClientOptions { SpinWait = LongSpin });
        Assert.Equal(3, await probe.EchoAsync(3));
        var calls = new[] { probe.LaterAsync(1), probe.LaterAsync(2), probe.LaterAsync(3) };
        await Eventually.HoldsAsync(() => Enumerable.Range(1, 3).All(server.Probe.IsWaiting), Settle, () => "the calls never reached the service");
        await SpinnersAlone.NoneSpinningAsync();
        var startedBefore = SpinBeforeBlocking.Started;
        var declinedBefore = SpinBeforeBlocking.Declined;

        // One answer read, two calls still in flight: the reader's next wait blocks at once.
        server.Probe.Release(3);
        Assert.Equal(30, await calls[2].WaitAsync(Settle));
        await Eventually.HoldsAsync(() => SpinBeforeBlocking.Declined > declinedBefore, Settle, () => "the reader was never told to block");
        Assert.Equal(startedBefore, SpinBeforeBlocking.Started);
        Assert.Equal(2, FastConnectionPool.CallsInFlight.Count);

        // At most one left: the reader spins again (once the backoff its last fruitless spin earned has passed).
        server.Probe.Release(2);
        Assert.Equal(20, await calls[1].WaitAsync(Settle));
        server.Probe.Release(1);
        Assert.Equal(10, await calls[0].WaitAsync(Settle));
        await Eventually.HoldsAsync(() => SpinBeforeBlocking.Started > startedBefore, Settle, () => "the reader never spun once at most one call was left");
        Assert.Equal(0, FastConnectionPool.CallsInFlight.Count);
    }

    [Fact]
    public async Task ACallThatFails_OrAReplyStreamOnceDisposed_NoLongerCountsAsInFlight()
    {
        await using var server = await TestFastServer.StartAsync(o => o.SpinWait = TimeSpan.Zero, s => s.AddRpcService<IStreamedFiles, StreamedFiles>());
        var probe = server.Client<IProbe>();
        var files = server.Client<IStreamedFiles>();

        Assert.Throws<RpcServiceException>(() => probe.Refuse((int)RpcErrorCode.QuotaExceeded));
        Assert.Equal(0, FastConnectionPool.CallsInFlight.Count);

        // A reply stream holds its connection, and so its call, until the caller is done reading.
        var download = files.Download("hello.txt");
        Assert.Equal(1, FastConnectionPool.CallsInFlight.Count);
        await download.DisposeAsync();
        Assert.Equal(0, FastConnectionPool.CallsInFlight.Count);
    }

    [Fact]
    public async Task TheServer_DoesNotSpinWhileAnotherConnectionHandlesAFrame_AndSpinsOnceNoneDoes()
    {
        await using var server = await TestFastServer.StartAsync(o => o.SpinWait = LongSpin);
        var probe = server.Client<IProbe>(new FastClientOptions { SpinWait = TimeSpan.Zero });

        // Hold runs on its connection's own thread: that connection is handling a frame until released.
        var held = Task.Run(() => probe.Hold(1));
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(1) && SpinBeforeBlocking.Spinning == 0, Settle, () => "the held call never reached the service");
        var startedBefore = SpinBeforeBlocking.Started;
        var declinedBefore = SpinBeforeBlocking.Declined;

        // The pool's only connection is busy: this call opens a second, whose reader then waits for its next frame.
        Assert.Equal(5, probe.Echo(5));
        await Eventually.HoldsAsync(() => SpinBeforeBlocking.Declined > declinedBefore, Settle, () => "the second connection's reader was never told to block");
        Assert.Equal(startedBefore, SpinBeforeBlocking.Started);

        server.Probe.Release(1);
        Assert.Equal(10, await held.WaitAsync(Settle));
        // Nothing handled any more: a reader waiting for its next frame spins again.
        await Eventually.HoldsAsync(() => SpinBeforeBlocking.Started > startedBefore, Settle, () => "no reader spun once the held call was answered");
    }

    public Task InitializeAsync() => SpinnersAlone.NoneSpinningAsync();

    public Task DisposeAsync() => Task.CompletedTask;
}
