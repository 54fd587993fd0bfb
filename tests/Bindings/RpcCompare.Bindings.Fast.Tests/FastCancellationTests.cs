using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>A cancelled or timed-out call: the server is told, the service's token fires, the caller returns at once, and the connection stays in step.</summary>
public sealed class FastCancellationTests
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);

    // With a call timeout set as well, the caller's cancellation is still an OperationCanceledException with its token, not a timeout.
    [Theory]
    [InlineData(FastTaskCalls.Multiplexed, false)]
    [InlineData(FastTaskCalls.OnCallerThread, false)]
    [InlineData(FastTaskCalls.Multiplexed, true)]
    [InlineData(FastTaskCalls.OnCallerThread, true)]
    public async Task ACancelledToken_CancelsTheServiceAndTheCall_AndTheConnectionServesOn(FastTaskCalls taskCalls, bool withCallTimeout)
    {
        await using var server = await TestFastServer.StartAsync();
        var callTimeout = withCallTimeout ? TimeSpan.FromMinutes(5) : Timeout.InfiniteTimeSpan;
        var probe = server.Client<IProbe>(new FastClientOptions { TaskCalls = taskCalls, CallTimeout = callTimeout });
        Assert.Equal(1, await probe.EchoAsync(1));
        using var cancellation = new CancellationTokenSource();

        var call = Task.Run(() => probe.WaitForCancellationAsync(7, cancellation.Token));
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(7), Settle, () => "the call never reached the service");
        await cancellation.CancelAsync();

        var cancelled = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call.WaitAsync(Settle));
        Assert.Equal(cancellation.Token, cancelled.CancellationToken);
        await Eventually.HoldsAsync(() => server.Probe.SawCancellation(7), Settle, () => "the service's token never fired");
        Assert.Equal(2, await probe.EchoAsync(2));
        // One connection throughout: the cancelled call left it in step.
        Assert.Equal(1, server.Server.OpenConnections);
        Assert.Empty(server.Log.Matching("closed"));
    }

    [Theory]
    [InlineData(FastTaskCalls.Multiplexed)]
    [InlineData(FastTaskCalls.OnCallerThread)]
    public async Task AServiceIgnoringItsToken_StillLetsTheCallerGo_AndItsLateReplyIsDropped(FastTaskCalls taskCalls)
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>(new FastClientOptions { TaskCalls = taskCalls });
        using var cancellation = new CancellationTokenSource();

        var call = Task.Run(() => probe.IgnoreCancellationAsync(8, cancellation.Token));
        await Eventually.HoldsAsync(() => server.Probe.IsWaiting(8), Settle, () => "the call never reached the service");
        await cancellation.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => call.WaitAsync(Settle));
        server.Probe.Release(8);

        // The same connection's next calls get their own replies, not the cancelled call's 80.
        Assert.Equal(3, await probe.EchoAsync(3));
        Assert.Equal(4, await probe.EchoAsync(4));
        Assert.Equal(1, server.Server.OpenConnections);
        Assert.Empty(server.Log.Matching("closed"));
    }

    [Theory]
    [InlineData(FastTaskCalls.Multiplexed)]
    [InlineData(FastTaskCalls.OnCallerThread)]
    public async Task ACallPastItsTimeout_IsATimeoutException_AndTheServiceIsCancelled(FastTaskCalls taskCalls)
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>(new FastClientOptions { CallTimeout = TimeSpan.FromMilliseconds(200), TaskCalls = taskCalls });

        var timedOut = await Assert.ThrowsAsync<TimeoutException>(() => Task.Run(() => probe.WaitForCancellationAsync(9, CancellationToken.None)).WaitAsync(Settle));

        Assert.Contains("WaitForCancellation did not complete within 200 ms (FastClientOptions.CallTimeout)", timedOut.Message, StringComparison.Ordinal);
        await Eventually.HoldsAsync(() => server.Probe.SawCancellation(9), Settle, () => "the service's token never fired");
        Assert.Equal(5, await probe.EchoAsync(5));
    }

    [Fact]
    public void ACallTimeoutNotPositive_IsRefused()
    {
        var refused = Assert.Throws<InvalidOperationException>(() => new FastClientProvider(new FastClientOptions { CallTimeout = TimeSpan.Zero }));

        Assert.StartsWith("FastClientOptions.CallTimeout must be positive", refused.Message, StringComparison.Ordinal);
        _ = new FastClientProvider(new FastClientOptions { CallTimeout = Timeout.InfiniteTimeSpan });
    }

    [Fact]
    public async Task ACancelForACallAlreadyAnswered_OrNeverMade_IsIgnored()
    {
        await using var server = await TestFastServer.StartAsync();
        using var raw = new RawFastConnection(server.Path);
        var echo = raw.Bind<IProbe>()["Echo"];

        raw.Request(echo, 1, new KeyMessage { Value = 21 });
        var (first, _) = raw.Read();
        raw.Send(Cancel(1));
        raw.Send(Cancel(99));
        raw.Request(echo, 2, new KeyMessage { Value = 22 });
        var (second, _) = raw.Read();

        Assert.Equal((FrameKind.Reply, 1u), (first.Kind, first.CallId));
        Assert.Equal((FrameKind.Reply, 2u), (second.Kind, second.CallId));
    }

    [Fact]
    public async Task AClientThatGoesAway_CancelsItsCallsOnTheServer()
    {
        await using var server = await TestFastServer.StartAsync();
        var probe = server.Client<IProbe>();
        using (var raw = new RawFastConnection(server.Path))
        {
            var wait = raw.Bind<IProbe>()["WaitForCancellation"];
            raw.Request(wait, 1, new KeyMessage { Value = 10 });
            await Eventually.HoldsAsync(() => server.Probe.IsWaiting(10), Settle, () => "the call never reached the service");
        }

        await Eventually.HoldsAsync(() => server.Probe.SawCancellation(10), Settle, () => "the service's token never fired");
        Assert.Equal(6, probe.Echo(6));
    }

    private static byte[] Cancel(uint callId)
    {
        var frame = new byte[FrameHeader.Size];
        new FrameHeader(FrameKind.Cancel, 0, callId, 0).Write(frame);
        return frame;
    }

    // The request message of Echo(int value) and WaitForCancellation(int key): one int, field 1.
    [ProtoBuf.ProtoContract]
    private sealed class KeyMessage
    {
        [ProtoBuf.ProtoMember(1)]
        public int Value { get; set; }
    }
}
