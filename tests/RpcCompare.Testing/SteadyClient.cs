using RpcCompare.Contracts;

namespace RpcCompare.Testing;

/// <summary>
/// A well-behaved client calling in a bounded loop while a test abuses the server, proving the
/// server keeps serving others. Stops 5 calls after it is asked to, or after 100,000 calls.
/// </summary>
public sealed class SteadyClient
{
    private const int MaxCalls = 100_000;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task<(int Succeeded, Exception? Failure)> _loop;
    private int _served;

    private SteadyClient(Func<ICallShapeService> connect)
    {
        _loop = Task.Run(() => LoopAsync(connect));
    }

    /// <summary>Starts calling over a client from <paramref name="connect"/>, disposed at the end if it is disposable.</summary>
    public static SteadyClient Start(Func<ICallShapeService> connect) => new(connect);

    /// <summary>
    /// Completes once <paramref name="calls"/> more calls have succeeded from now: the server went
    /// on serving others for that long (whatever a test holds open meanwhile).
    /// </summary>
    public async Task ServedMoreAsync(int calls)
    {
        var target = Volatile.Read(ref _served) + calls;
        using var timeout = new CancellationTokenSource(TestTimeout.Default);
        while (Volatile.Read(ref _served) < target)
        {
            if (_loop.IsCompleted)
            {
                throw new InvalidOperationException($"The well-behaved client stopped after {Volatile.Read(ref _served)} calls, before {calls} more were served.", (await _loop).Failure);
            }

            await Task.Delay(5, timeout.Token);
        }
    }

    /// <summary>Stops the loop (after 5 more calls) and returns how many calls succeeded; throws the first failure.</summary>
    public async Task<int> StopAsync()
    {
        await _stop.CancelAsync();
        var (succeeded, failure) = await _loop.WaitAsync(TimeSpan.FromSeconds(30));
        _stop.Dispose();
        if (failure is not null)
        {
            throw new InvalidOperationException($"The well-behaved client failed after {succeeded} calls.", failure);
        }

        return succeeded;
    }

    private async Task<(int, Exception?)> LoopAsync(Func<ICallShapeService> connect)
    {
        var client = connect();
        var succeeded = 0;
        try
        {
            // Keeps calling until asked to stop and then makes 5 more, so the server must still be
            // serving after the abuse, not only before it.
            var afterStop = 0;
            while (succeeded < MaxCalls && afterStop < 5)
            {
                if (_stop.IsCancellationRequested)
                {
                    afterStop++;
                }

                var reply = await client.IncrementAsync(new IntMessage { Value = succeeded }).WaitAsync(TimeSpan.FromSeconds(10));
                if (reply.Value != succeeded + 1)
                {
                    throw new InvalidOperationException($"Increment({succeeded}) returned {reply.Value}.");
                }

                succeeded++;
                Volatile.Write(ref _served, succeeded);
            }

            return (succeeded, null);
        }
        catch (Exception exception)
        {
            return (succeeded, exception);
        }
        finally
        {
            if (client is IAsyncDisposable disposable)
            {
                await disposable.DisposeAsync();
            }
        }
    }
}
