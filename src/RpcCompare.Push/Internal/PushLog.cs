using Microsoft.Extensions.Logging;

namespace RpcCompare.Push.Internal;

internal static partial class PushLog
{
    [LoggerMessage(1, LogLevel.Warning, "Subscriber {Id} on topic '{Topic}' disconnected: {Capacity} notifications waiting unread.")]
    public static partial void SubscriberDisconnected(ILogger logger, long id, string topic, int capacity);

    [LoggerMessage(2, LogLevel.Information, "Topic '{Topic}': the broker's feed skipped sequences {First} to {Last}; {Found} read back from its log.")]
    public static partial void GapRead(ILogger logger, string topic, long first, long last, int found);

    [LoggerMessage(3, LogLevel.Error, "The push broker ({Broker}) failed: {Message}. Further failures within {Quiet} are not logged.")]
    public static partial void BrokerFailed(ILogger logger, Exception exception, string broker, string message, TimeSpan quiet);

    [LoggerMessage(5, LogLevel.Information, "Following the push broker ({Broker}) again after its connection came back; reading back what was published meanwhile.")]
    public static partial void FeedReopened(ILogger logger, string broker);

    [LoggerMessage(6, LogLevel.Warning, "Topic '{Topic}': the broker's numbering went back from {Delivered} to {Last} (it lost its data); the topic's {Count} subscribers here were ended so they subscribe again.")]
    public static partial void NumberingRestarted(ILogger logger, string topic, long delivered, long last, int count);

    [LoggerMessage(4, LogLevel.Information, "Following the push broker ({Broker}): publications on any replica reach this host's subscribers.")]
    public static partial void FeedOpened(ILogger logger, string broker);
}
