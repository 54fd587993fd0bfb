using System.Net;
using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Fast.Tests;

// The spinner count is per process: other tests' calls (which spin by default) must not run meanwhile.
[CollectionDefinition(nameof(SpinBeforeBlockingTests), DisableParallelization = true)]
public sealed class SpinnersAlone
{
    public static readonly TimeSpan Settle = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Waits out a waiter an earlier test left spinning (a server's reader keeps its budget after the
    /// test ends): at most half the cores spin, so it would make the next test's waiter block for the cap.
    /// </summary>
    public static Task NoneSpinningAsync() =>
        Eventually.HoldsAsync(() => SpinBeforeBlocking.Spinning == 0, Settle, () => $"{SpinBeforeBlocking.Spinning} still spinning from an earlier test");
}

/// <summary>The bounded spin before a blocking receive: it ends when bytes arrive or its budget runs out, and at most half the cores spin.</summary>
[Collection(nameof(SpinBeforeBlockingTests))]
public sealed class SpinBeforeBlockingTests : IAsyncLifetime
{
    private static readonly TimeSpan Settle = SpinnersAlone.Settle;
    private static readonly long LongBudget = SpinBeforeBlocking.Ticks(TimeSpan.FromSeconds(60));

    [Fact]
    public async Task BytesArrivingWhileItSpins_EndTheSpin()
    {
        using var pair = SocketPair.Open();
        var spinning = Task.Run(() => SpinBeforeBlocking.TryWaitForData(pair.Receiver, LongBudget));
        await Eventually.HoldsAsync(() => SpinBeforeBlocking.Spinning == 1, Settle, () => $"{SpinBeforeBlocking.Spinning} spinning");

        pair.Sender.Send([1]);

        Assert.True(await spinning.WaitAsync(Settle));
        Assert.Equal(0, SpinBeforeBlocking.Spinning);
    }

    [Fact]
    public void NothingArriving_TheSpinEndsAtItsBudget()
    {
        using var pair = SocketPair.Open();

        Assert.False(SpinBeforeBlocking.TryWaitForData(pair.Receiver, SpinBeforeBlocking.Ticks(TimeSpan.FromMilliseconds(20))));
        Assert.Equal(0, SpinBeforeBlocking.Spinning);
    }

    [Fact]
    public void NoBudget_DoesNotSpin_EvenWithBytesWaiting()
    {
        using var pair = SocketPair.Open();
        pair.Sender.Send([1]);

        Assert.Equal(0, SpinBeforeBlocking.Ticks(TimeSpan.Zero));
        Assert.False(SpinBeforeBlocking.TryWaitForData(pair.Receiver, 0));
    }

    [Fact]
    public async Task PastHalfTheCores_AnotherWaiterBlocksAtOnce()
    {
        var pairs = Enumerable.Range(0, SpinBeforeBlocking.MaxSpinners + 1).Select(_ => SocketPair.Open()).ToArray();
        try
        {
            var holders = pairs.Skip(1).Select(p => Task.Run(() => SpinBeforeBlocking.TryWaitForData(p.Receiver, LongBudget))).ToArray();
            await Eventually.HoldsAsync(() => SpinBeforeBlocking.Spinning == SpinBeforeBlocking.MaxSpinners, Settle, () => $"{SpinBeforeBlocking.Spinning} spinning");

            // With a minute's budget and nothing to read, only the cap returns it before the minute is up.
            var refused = Task.Run(() => SpinBeforeBlocking.TryWaitForData(pairs[0].Receiver, LongBudget));
            Assert.False(await refused.WaitAsync(Settle));

            foreach (var pair in pairs.Skip(1))
            {
                pair.Sender.Send([1]);
            }

            Assert.All(await Task.WhenAll(holders).WaitAsync(Settle), Assert.True);
        }
        finally
        {
            foreach (var pair in pairs)
            {
                pair.Dispose();
            }
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task AReaderSpins_OnlyWhenItsOwnerSaysItMay(bool may)
    {
        // The server says no while a call of the connection runs on other threads: they need the cores.
        using var pair = SocketPair.Open();
        var asked = false;
        var spinsBefore = SpinBeforeBlocking.Started;
        using var reader = new FrameReader(new SocketTransport(pair.Receiver), 1024) { SpinTicks = LongBudget, MaySpin = () =>
        {
            Volatile.Write(ref asked, true);
            return may;
        } };
        var reading = Task.Run(() => reader.TryRead(out var header, out _) ? header.CallId : 0u);
        await Eventually.HoldsAsync(() => Volatile.Read(ref asked), Settle, () => "the reader never asked");

        if (may)
        {
            await Eventually.HoldsAsync(() => SpinBeforeBlocking.Spinning == 1, Settle, () => $"{SpinBeforeBlocking.Spinning} spinning");
        }

        using var writer = new FrameWriter();
        writer.Reset();
        pair.Sender.Send(writer.Complete(FrameKind.Request, 1, 7));
        Assert.Equal(7u, await reading.WaitAsync(Settle));
        // Told no, it blocked at once: no spin started during the read, whenever the test thread ran.
        Assert.Equal(may ? spinsBefore + 1 : spinsBefore, SpinBeforeBlocking.Started);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1_000)]
    public async Task CallsAreServed_BlockingAtOnceOrSpinningLong(int spinMicroseconds)
    {
        var spin = TimeSpan.FromMicroseconds(spinMicroseconds);
        await using var server = await TestFastServer.StartAsync(o => o.SpinWait = spin);
        var probe = server.Client<IProbe>(new FastClientOptions { SpinWait = spin });

        Assert.Equal([1, 2, 3], Enumerable.Range(1, 3).Select(probe.Echo));
        Assert.Contains($"spin before blocking {spinMicroseconds} µs", server.Log.Matching("spin before blocking")[0], StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(100_001)]
    public void ASpinOutsideItsRange_IsRefusedOnEitherSide(int spinMicroseconds)
    {
        var spin = TimeSpan.FromMicroseconds(spinMicroseconds);

        var server = Assert.Throws<InvalidOperationException>(() => new FastUdsBindingOptions { Path = "/tmp/fast.sock", SpinWait = spin }.ThrowIfInvalidFast());
        var client = Assert.Throws<InvalidOperationException>(() => new FastClientProvider(new FastClientOptions { SpinWait = spin }));

        Assert.StartsWith("FastUds:SpinWait must be between 0 and 100 ms", server.Message, StringComparison.Ordinal);
        Assert.StartsWith("FastClientOptions.SpinWait must be between 0 and 100 ms", client.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void TheLimitItself_IsAccepted()
    {
        new FastUdsBindingOptions { Path = "/tmp/fast.sock", SpinWait = FastSpin.Max }.ThrowIfInvalidFast();
        _ = new FastClientProvider(new FastClientOptions { SpinWait = FastSpin.Max });
    }

    public Task InitializeAsync() => SpinnersAlone.NoneSpinningAsync();

    public Task DisposeAsync() => Task.CompletedTask;

    /// <summary>Two connected loopback sockets, blocking as the binding's are.</summary>
    private sealed class SocketPair : IDisposable
    {
        private SocketPair(Socket sender, Socket receiver) => (Sender, Receiver) = (sender, receiver);

        public Socket Sender { get; }

        public Socket Receiver { get; }

        public static SocketPair Open()
        {
            using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            listener.Listen(1);
            var sender = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            sender.Connect(listener.LocalEndPoint!);
            return new SocketPair(sender, listener.Accept());
        }

        public void Dispose()
        {
            Sender.Dispose();
            Receiver.Dispose();
        }
    }
}
