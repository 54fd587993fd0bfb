using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;

namespace RpcCompare.Fast.Generator.Model;

/// <summary>
/// An array that compares by its items: pipeline outputs must be equatable for the incremental
/// driver to see that nothing changed (arrays compare by reference; roslyn's incremental
/// generators cookbook, "Pipeline model design").
/// </summary>
internal readonly struct EquatableArray<T> : IEquatable<EquatableArray<T>>, IEnumerable<T>
    where T : IEquatable<T>
{
    private readonly T[]? _items;

    public EquatableArray(IEnumerable<T> items)
    {
        _items = items.ToArray();
    }

    public int Count => _items?.Length ?? 0;

    public T this[int index] => _items![index];

    public bool Equals(EquatableArray<T> other) => (_items ?? Array.Empty<T>()).SequenceEqual(other._items ?? Array.Empty<T>());

    public override bool Equals(object? obj) => obj is EquatableArray<T> other && Equals(other);

    public override int GetHashCode()
    {
        var hash = 17;
        foreach (var item in _items ?? Array.Empty<T>())
        {
            hash = (hash * 31) + item.GetHashCode();
        }

        return hash;
    }

    public IEnumerator<T> GetEnumerator() => ((IEnumerable<T>)(_items ?? Array.Empty<T>())).GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}

internal static class EquatableArray
{
    public static EquatableArray<T> ToEquatable<T>(this IEnumerable<T> items)
        where T : IEquatable<T> => new(items);
}
