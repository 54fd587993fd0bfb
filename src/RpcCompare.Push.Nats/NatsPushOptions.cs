namespace RpcCompare.Push.Nats;

/// <summary>Where the NATS server (with JetStream) that replicas share topics through is, and how much of each topic it keeps.</summary>
public sealed class NatsPushOptions
{
    /// <summary>The configuration section: <c>Push:Nats</c>.</summary>
    public const string SectionName = "Push:Nats";

    /// <summary>The server's URL, e.g. <c>nats://127.0.0.1:4222</c>; several, comma-separated, for a cluster.</summary>
    public string Url { get; set; } = "";

    /// <summary>
    /// Prefix of the streams' names and of the subjects: replicas that share it share topics. Letters,
    /// digits, '-' and '_' only (NATS names and subject tokens allow no '.', '*', '>' or spaces).
    /// </summary>
    public string Prefix { get; set; } = "rpccompare-push";

    /// <summary>Publications each topic's stream keeps: how far back a subscriber that lost its connection can read what it missed. 10,000 by default.</summary>
    public int MaxMessages { get; set; } = 10_000;

    /// <summary>
    /// Keep the topics' streams in memory instead of on the server's disk: faster, and lost when the
    /// server restarts (every subscriber is then told its numbers went back). Off by default.
    /// </summary>
    public bool MemoryStorage { get; set; }

    /// <summary>Whether <paramref name="prefix"/> can begin stream names and subjects: one token of letters, digits, '-' and '_'.</summary>
    public static bool IsValidPrefix(string? prefix) => !string.IsNullOrEmpty(prefix) && prefix.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_');
}
