namespace RpcCompare.Testing;

/// <summary>Bounds every await in the tests, so a hang fails fast with a name instead of stalling CI.</summary>
public static class TestTimeout
{
    public static readonly TimeSpan Default = TimeSpan.FromSeconds(30);

    public static Task<T> Bounded<T>(this Task<T> task) => task.WaitAsync(Default);

    public static Task Bounded(this Task task) => task.WaitAsync(Default);
}
