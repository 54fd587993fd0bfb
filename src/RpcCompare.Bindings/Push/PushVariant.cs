namespace RpcCompare.Bindings.Push;

/// <summary>Checks a requested push variant against what a binding offers.</summary>
public static class PushVariant
{
    /// <summary>Throws a clear error naming the offered variants; null (the default) always passes.</summary>
    public static void ThrowUnlessOffered(string? variant, IReadOnlyList<string> offered, string binding)
    {
        ArgumentNullException.ThrowIfNull(offered);
        if (variant is not null && !offered.Contains(variant, StringComparer.Ordinal))
        {
            throw new ArgumentException($"Binding '{binding}' has no push variant '{variant}'; it offers: {string.Join(", ", offered)}.", nameof(variant));
        }
    }
}
