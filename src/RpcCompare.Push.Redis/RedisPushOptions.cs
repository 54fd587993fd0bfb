namespace RpcCompare.Push.Redis;

/// <summary>Where the Redis that replicas share topics through is, and how much of each topic it keeps.</summary>
public sealed class RedisPushOptions
{
    /// <summary>The configuration section: <c>Push:Redis</c>.</summary>
    public const string SectionName = "Push:Redis";

    /// <summary>A StackExchange.Redis configuration string, e.g. <c>127.0.0.1:6379</c> or <c>redis:6379,password=…</c>.</summary>
    public string Configuration { get; set; } = "";

    /// <summary>Prefix of the keys and of the channel: replicas that share it share topics.</summary>
    public string KeyPrefix { get; set; } = "rpccompare:push:";

    /// <summary>
    /// Publications each topic's log keeps (about: Redis trims whole blocks): how far back a
    /// subscriber that lost its connection can read what it missed. 10,000 by default.
    /// </summary>
    public int MaxLength { get; set; } = 10_000;
}
