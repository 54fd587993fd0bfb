using Microsoft.Extensions.Logging;

namespace RpcCompare.Push.Internal;

internal static partial class PushLog
{
    [LoggerMessage(1, LogLevel.Warning, "Subscriber {Id} on topic '{Topic}' disconnected: {Capacity} notifications waiting unread.")]
    public static partial void SubscriberDisconnected(ILogger logger, long id, string topic, int capacity);
}
