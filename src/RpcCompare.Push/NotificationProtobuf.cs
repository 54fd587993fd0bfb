using RpcCompare.Contracts.Push;

namespace RpcCompare.Push;

/// <summary>
/// A notification as the brokers store it: protobuf (protobuf-net, the contract's own member numbers), without
/// its sequence, which the broker gives and carries beside it (a Redis stream entry's id, a NATS stream's
/// message metadata or <c>Nats-Sequence</c> header).
/// </summary>
public static class NotificationProtobuf
{
    /// <summary>The notification as its publisher sent it.</summary>
    public static byte[] Serialize(Notification notification)
    {
        // As the publisher sent it: a Sequence it set is overwritten by the stream's on the way out.
        using var buffer = new MemoryStream();
        ProtoBuf.Serializer.Serialize(buffer, notification);
        return buffer.ToArray();
    }

    /// <summary>A stored notification, numbered <paramref name="sequence"/>, its trace context cleaned (<see cref="NotificationTrace"/>).</summary>
    /// <exception cref="ProtoBuf.ProtoException">The body is not protobuf of a notification.</exception>
    public static Notification Deserialize(byte[]? body, long sequence)
    {
        var notification = ProtoBuf.Serializer.Deserialize<Notification>((body ?? []).AsSpan());
        notification.Sequence = sequence;
        NotificationTrace.Clean(notification);
        return notification;
    }

    /// <summary>False for anything that is not protobuf of a notification with a topic (what a stranger put on a feed).</summary>
    public static bool TryDeserialize(byte[] body, long sequence, out Notification notification)
    {
        try
        {
            notification = Deserialize(body, sequence);
        }
        catch (Exception e) when (e is ProtoBuf.ProtoException or EndOfStreamException or InvalidOperationException or OverflowException or ArgumentException)
        {
            // protobuf-net reports malformed input with any of these.
            notification = null!;
            return false;
        }

        return !string.IsNullOrEmpty(notification.Topic);
    }
}
