using RpcCompare.Bindings.Fast.Client;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>The multiplexed connection's reader waits on the socket while calls are left to it, stands down while callers read their own replies, and stops when the connection ends.</summary>
public sealed class ReaderGateTests
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task AReaderNotWanted_Waits_UntilACallAsksForIt()
    {
        var gate = new ReaderGate();
        var reader = Task.Run(gate.WaitUntilWanted);

        // Not a proof that it would wait forever, but a reader let through at once is done long before this.
        await Task.Delay(100);
        Assert.False(reader.IsCompleted);

        gate.Want();
        Assert.True(await reader.WaitAsync(Settle));
        Assert.True(gate.IsWanted);
    }

    [Fact]
    public async Task AWantedReader_GoesOn_AndOneThatStoodDown_WaitsAgain()
    {
        var gate = new ReaderGate();
        gate.Want();
        gate.Want();
        Assert.True(await Task.Run(gate.WaitUntilWanted).WaitAsync(Settle));

        gate.CallerRead();
        Assert.True(gate.StandDownIfCallersRead());
        Assert.False(gate.IsWanted);
        var reader = Task.Run(gate.WaitUntilWanted);
        await Task.Delay(100);
        Assert.False(reader.IsCompleted);

        gate.Want();
        Assert.True(await reader.WaitAsync(Settle));
    }

    [Fact]
    public void WhileCallsAreLeftToIt_TheReaderKeepsWatching_UntilACallerReadsItsOwnReply()
    {
        var gate = new ReaderGate();
        gate.Want();

        Assert.False(gate.StandDownIfCallersRead());
        Assert.True(gate.IsWanted);

        gate.CallerRead();
        // A caller that gave up its spin since: the reader is needed again, and stays.
        gate.Want();
        Assert.False(gate.StandDownIfCallersRead());

        gate.CallerRead();
        Assert.True(gate.StandDownIfCallersRead());
        Assert.False(gate.IsWanted);
    }

    [Fact]
    public async Task AnEndedConnection_LetsTheReaderGo_WithFalse()
    {
        var gate = new ReaderGate();
        var reader = Task.Run(gate.WaitUntilWanted);
        await Task.Delay(50);

        gate.Close();

        Assert.False(await reader.WaitAsync(Settle));
        gate.Want();
        Assert.False(gate.WaitUntilWanted());
    }
}
