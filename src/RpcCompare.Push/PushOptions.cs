namespace RpcCompare.Push;

/// <summary>Server-side settings of publish/subscribe, the same on every push binding.</summary>
public sealed class PushOptions
{
    /// <summary>
    /// Notifications queued for one subscriber before it counts as stalled and is disconnected.
    /// Defaults to 256: at one publication a second per topic a subscriber may fall minutes behind;
    /// a broadcast never waits for it.
    /// </summary>
    public int QueueCapacity { get; set; } = 256;
}
