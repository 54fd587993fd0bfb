namespace RpcCompare.Bindings.Fast;

/// <summary>The spin-before-blocking settings shared by the fast binding's server and client options.</summary>
public static class FastSpin
{
    /// <summary>
    /// The default spin before a blocking receive: long enough to catch the other process's answer
    /// to a small call on this kind of machine, short enough that an idle wait costs little.
    /// </summary>
    public static readonly TimeSpan Default = TimeSpan.FromMicroseconds(50);

    /// <summary>The longest spin accepted: a wait past it is better spent blocked.</summary>
    public static readonly TimeSpan Max = TimeSpan.FromMilliseconds(100);

    internal static void ThrowIfInvalid(TimeSpan spin, string setting)
    {
        if (spin < TimeSpan.Zero || spin > Max)
        {
            throw new InvalidOperationException($"{setting} must be between 0 and {Max.TotalMilliseconds:0} ms; got {spin.TotalMilliseconds:0.###} ms.");
        }
    }
}
