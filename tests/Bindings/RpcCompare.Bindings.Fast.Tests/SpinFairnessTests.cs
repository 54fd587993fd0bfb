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
    public async Task AMultiplexedCall_SpinsForItsOwnReply_OnlyAsTheProcesssOnlyCallInFlight()
    {
        await using var server = await TestFastServer.StartAsync(o => o.SpinWait = TimeSpan.Zero);
        var probe = server.Client<IProbe>(new FastClientOptions { SpinWait = LongSpin });
        Assert.Equal(3, await probe.EchoAsync(3));
        await SpinnersAlone.NoneSpinningAsync();
        var startedBefore = SpinBeforeBlocking.Started;

        // Alone in flight: the caller reads for its reply until its budget runs out (the service holds it), then returns the task unfinished.
        var first = probe.LaterAsync(1);
        Assert.False(first.IsCompleted);
        Assert.Equal(startedBefore + 1, SpinBeforeBlocking.Started);

        // Another call in flight: this one returns at once, told not to spin.
        var declinedBefore = SpinBeforeBlocking.Declined;
        var second = probe.LaterAsync(2);
        Assert.Equal(startedBefore + 1, SpinBeforeBlocking.Started);
        Assert.True(SpinBeforeBlocking.Declined > declinedBefore);
        Assert.Equal(2, FastConnectionPool.CallsInFlight.Count);

        // The connection's reader thread answers both.
        server.Probe.Release(2);
        server.Probe.Release(1);
        var answers = await Task.WhenAll(first, second).WaitAsync(Settle);
        Assert.Equal([10, 20], answers);
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
