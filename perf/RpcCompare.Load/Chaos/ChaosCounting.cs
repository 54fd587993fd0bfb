using System.Collections.Concurrent;

namespace RpcCompare.Load.Chaos;

/// <summary>The counting the writers and the publisher share under chaos: a running maximum, and failures grouped by error.</summary>
internal static class ChaosCounting
{
    /// <summary>Raises <paramref name="target"/> to <paramref name="value"/> if that is higher, whoever else raises it meanwhile.</summary>
    public static void RaiseTo(ref long target, long value)
    {
        var current = Interlocked.Read(ref target);
        while (value > current && Interlocked.CompareExchange(ref target, value, current) != current)
        {
            current = Interlocked.Read(ref target);
        }
    }

    /// <summary>Counts one failure under its error's type and message.</summary>
    public static void Count(this ConcurrentDictionary<string, long> errors, Exception exception) =>
        errors.AddOrUpdate($"{exception.GetType().Name}: {exception.Message}", 1, (_, count) => count + 1);

    /// <summary>The failures, most frequent first.</summary>
    public static IReadOnlyList<ErrorCount> MostFrequentFirst(this ConcurrentDictionary<string, long> errors) =>
        [.. errors.OrderByDescending(e => e.Value).Select(e => new ErrorCount(e.Key, e.Value))];
}
