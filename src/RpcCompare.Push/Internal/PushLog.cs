using Microsoft.Extensions.Logging;

namespace RpcCompare.Push.Internal;

internal static partial class PushLog
{
    [LoggerMessage(1, LogLevel.Warning, "Subscriber {Id} on topic '{Topic}' disconnected: {Capacity} notifications waiting unread.")]
    public static partial void SubscriberDisconnected(ILogger logger, long id, string topic, int capacity);

    [LoggerMessage(2, LogLevel.Information, "Topic '{Topic}': the broker's feed skipped sequences {First} to {Last}; {Found} read back from its log.")]
    public static partial void GapRead(ILogger logger, string topic, long first, long last, int found);

    [LoggerMessage(3, LogLevel.Error, "The push broker ({Broker}) failed: {Message}. Further failures within {Quiet} are not logged.")]
    public static partial void BrokerFailed(ILogger logger, string broker, string message, TimeSpan quiet);

    [LoggerMessage(4, LogLevel.Information, "Following the push broker ({Broker}): publications on any replica reach this host's subscribers.")]
    public static partial void FeedOpened(ILogger logger, string broker);
}
