using System.Diagnostics;

namespace RpcCompare.PushAgent;

/// <summary>
/// Publish-to-receive latency from the publisher's Stopwatch timestamp. Publisher, host and agents
/// share this machine, and on Linux Stopwatch reads CLOCK_MONOTONIC, one clock for every process.
/// </summary>
internal static class Latency
{
    public static double MillisecondsSince(long sentTimestamp) => Stopwatch.GetElapsedTime(sentTimestamp).TotalMilliseconds;
}
