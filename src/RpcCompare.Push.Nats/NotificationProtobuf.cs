using RpcCompare.Contracts.Push;

namespace RpcCompare.Push.Nats;

/// <summary>
/// A notification in NATS: protobuf (protobuf-net, the contract's own member numbers); its sequence is the
/// stream's, carried beside it (the message's metadata in the log, the <c>Nats-Sequence</c> header in the feed).
/// </summary>
internal static class NotificationProtobuf
{
    public static byte[] Serialize(Notification notification)
    {
        // As the publisher sent it: a Sequence it set is overwritten by the stream's on the way out.
        using var buffer = new MemoryStream();
        ProtoBuf.Serializer.Serialize(buffer, notification);
        return buffer.ToArray();
    }

    public static Notification Deserialize(byte[]? body, long sequence)
    {
        var notification = ProtoBuf.Serializer.Deserialize<Notification>((body ?? []).AsSpan());
        notification.Sequence = sequence;
        return notification;
    }

    /// <summary>False for anything that is not protobuf of a notification with a topic.</summary>
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
