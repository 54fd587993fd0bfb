using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Load.Scenarios;

namespace RpcCompare.Load.Tests.Scenarios;

/// <summary>
/// The warm-up of a client pool, with an operation that only counts its calls (no binding is
/// reached): zero warm-up makes no call unless the caller asks for one call per loop, which the
/// load command's compile pass and each scenario's pool do, so that a 1-s scenario never starts
/// with a cold client stack or opens its connections while measured.
/// </summary>
public sealed class ClientPoolWarmUpTests : IDisposable
{
    private readonly RpcClientFactory _factory = RpcClientFactory.CreateDefault();

    public void Dispose() => _factory.Dispose();

    [Fact]
    public async Task ZeroWarmUp_MakesNoCall()
    {
        var (pool, calls) = CountingPool();
        await using var _ = pool;

        await pool.WarmUpAsync(concurrency: 3, TimeSpan.Zero);

        Assert.Equal(0, calls());
        Assert.Equal(0, pool.Created);
    }

    [Fact]
    public async Task ZeroWarmUp_AtLeastOneCall_CallsOncePerLoop()
    {
        var (pool, calls) = CountingPool(yieldFirst: true);
        await using var _ = pool;

        await pool.WarmUpAsync(concurrency: 3, TimeSpan.Zero, atLeastOneCall: true);

        // Each call yields before it completes, so the three loops overlap and each holds its own client.
        Assert.Equal(3, calls());
        Assert.Equal(3, pool.Created);
    }

    [Fact]
    public async Task WarmUp_AtLeastOneCall_StillCallsUntilTheDeadline()
    {
        var (pool, calls) = CountingPool(yieldFirst: true);
        await using var _ = pool;

        // A second of warm-up: 200 ms once saw a single call on a CI machine busy building images,
        // its first call (compiling the pool's code) taking the whole window.
        await pool.WarmUpAsync(concurrency: 1, TimeSpan.FromSeconds(1), atLeastOneCall: true);

        Assert.True(calls() > 1, $"{calls()} calls in 1 s of warm-up");
    }

    private (ClientPool Pool, Func<int> Calls) CountingPool(bool yieldFirst = false)
    {
        var calls = 0;
        var operation = new LoadOperation("count", 0, _ => async () =>
        {
            Interlocked.Increment(ref calls);
            if (yieldFirst)
            {
                await Task.Delay(1);
            }
        });
        var pool = new ClientPool(_factory, BindingNames.InProc, Path.GetTempPath(), operation);
        return (pool, () => Volatile.Read(ref calls));
    }
}
