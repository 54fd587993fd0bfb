using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>The multiplexed connection's reader waits on the socket while calls are left to it, stands down while callers read their own replies, and stops when the connection ends.</summary>
public sealed class ReaderGateTests
{
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task AReaderNotWanted_Waits_UntilACallAsksForIt()
    {
        var gate = new ReaderGate();
        var reader = new Reader(gate);

        // Blocked in the gate: a reader let through at once would have ended instead.
        await reader.BlockedAsync(gate);

        gate.Want();
        Assert.True(reader.Result());
        Assert.True(gate.IsWanted);
    }

    [Fact]
    public async Task AWantedReader_GoesOn_AndOneThatStoodDown_WaitsAgain()
    {
        var gate = new ReaderGate();
        gate.Want();
        gate.Want();
        Assert.True(new Reader(gate).Result());

        gate.CallerRead();
        Assert.True(gate.StandDownIfCallersRead());
        Assert.False(gate.IsWanted);
        var reader = new Reader(gate);
        await reader.BlockedAsync(gate);

        gate.Want();
        Assert.True(reader.Result());
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
        var reader = new Reader(gate);
        await reader.BlockedAsync(gate);

        gate.Close();

        Assert.False(reader.Result());
        gate.Want();
        Assert.False(gate.WaitUntilWanted());
    }

    /// <summary>A reader thread in <see cref="ReaderGate.WaitUntilWanted"/>, watched through the gate's count of waiters rather than by time.</summary>
    private sealed class Reader
    {
        private readonly Thread _thread;
        private bool? _result;

        public Reader(ReaderGate gate)
        {
            _thread = new Thread(() => _result = gate.WaitUntilWanted()) { IsBackground = true, Name = "test reader" };
            _thread.Start();
        }

        /// <summary>Until the thread is blocked waiting in the gate (it never is if the gate let it through).</summary>
        public Task BlockedAsync(ReaderGate gate) => Eventually.HoldsAsync(
            () => gate.Waiting == 1,
            Settle,
            () => $"the reader never waited in the gate: {_thread.ThreadState}, returned {_result?.ToString() ?? "nothing"}");

        /// <summary>What the wait returned, once the thread has ended.</summary>
        public bool Result()
        {
            Assert.True(_thread.Join(Settle), "the reader is still waiting");
            return _result!.Value;
        }
    }
}
