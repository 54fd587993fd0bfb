namespace RpcCompare.Testing;

/// <summary>
/// Waits for a condition by polling it, never for a fixed time: the deadline is generous and only
/// fails a test whose event never comes, so a busy CI machine makes the test slower, not red.
/// </summary>
public static class Eventually
{
    /// <summary>Polls <paramref name="condition"/> every 100 ms until it holds; fails with <paramref name="failure"/> (read when failing) past <paramref name="timeout"/>.</summary>
    public static async Task HoldsAsync(Func<Task<bool>> condition, TimeSpan timeout, Func<string> failure)
    {
        ArgumentNullException.ThrowIfNull(condition);
        ArgumentNullException.ThrowIfNull(failure);
        var deadline = DateTime.UtcNow + timeout;
        while (!await condition())
        {
            if (DateTime.UtcNow >= deadline)
            {
                throw new TimeoutException($"Not within {timeout.TotalSeconds:0} s: {failure()}");
            }

            await Task.Delay(100);
        }
    }

    /// <summary>As <see cref="HoldsAsync(Func{Task{bool}}, TimeSpan, Func{string})"/>, for a condition that needs no await.</summary>
    public static Task HoldsAsync(Func<bool> condition, TimeSpan timeout, Func<string> failure) =>
        HoldsAsync(() => Task.FromResult(condition()), timeout, failure);
}
