using RpcCompare.Contracts.Push;

namespace RpcCompare.Bindings.Pipes.Protocol;

/// <summary>The pipes encoding of the push messages, in <see cref="MessageCodec"/>'s conventions.</summary>
internal static class PushCodec
{
    // Topic length (4) + sequence (8) + timestamp (8) + publisher length (4) + item count (4).
    private const int MinItemSize = 4;

    public static void WriteSubscribeRequest(FrameBuffer buffer, SubscribeRequest value)
    {
        buffer.WriteString(value.Topic);
        // After not given: -1 (a number received is never negative).
        buffer.WriteInt64(value.After ?? -1);
    }

    public static SubscribeRequest ReadSubscribeRequest(ref PayloadReader reader)
    {
        var topic = reader.ReadString();
        var after = reader.ReadInt64();
        return new() { Topic = topic, After = after == -1 ? null : after };
    }

    public static void WriteSubscribeReply(FrameBuffer buffer, SubscribeReply value) => buffer.WriteInt64(value.LastSequence);

    public static SubscribeReply ReadSubscribeReply(ref PayloadReader reader) => new() { LastSequence = reader.ReadInt64() };

    public static void WritePublishReply(FrameBuffer buffer, PublishReply value)
    {
        buffer.WriteInt64(value.Sequence);
        buffer.WriteInt32(value.Queued);
        buffer.WriteInt32(value.Disconnected);
    }

    public static PublishReply ReadPublishReply(ref PayloadReader reader) => new()
    {
        Sequence = reader.ReadInt64(),
        Queued = reader.ReadInt32(),
        Disconnected = reader.ReadInt32(),
    };

    public static void WriteNotification(FrameBuffer buffer, Notification value)
    {
        buffer.WriteString(value.Topic);
        buffer.WriteInt64(value.Sequence);
        buffer.WriteInt64(value.SentTimestamp);
        buffer.WriteString(value.Publisher);
        buffer.WriteInt32(value.Items.Count);
        foreach (var item in value.Items)
        {
            buffer.WriteString(item);
        }

        // The publisher's W3C trace context after the items (NotificationTrace), empty strings when untraced.
        buffer.WriteString(value.TraceParent);
        buffer.WriteString(value.TraceState);
    }

    public static Notification ReadNotification(ref PayloadReader reader)
    {
        var notification = new Notification
        {
            Topic = reader.ReadString(),
            Sequence = reader.ReadInt64(),
            SentTimestamp = reader.ReadInt64(),
            Publisher = reader.ReadString() is { Length: > 0 } publisher ? publisher : null,
        };
        var count = reader.ReadLength(MinItemSize);
        notification.Items = new List<string>(count);
        for (var i = 0; i < count; i++)
        {
            notification.Items.Add(reader.ReadString());
        }

        notification.TraceParent = reader.ReadString() is { Length: > 0 } traceParent ? traceParent : null;
        notification.TraceState = reader.ReadString() is { Length: > 0 } traceState ? traceState : null;
        return notification;
    }

    /// <summary>A whole <see cref="PipeFrame.Notification"/> frame, header included: the bytes every subscriber's connection is sent.</summary>
    public static byte[] EncodeNotificationFrame(Notification value)
    {
        using var buffer = new FrameBuffer();
        WriteNotification(buffer, value);
        return buffer.Complete(PipeFrame.Notification).ToArray();
    }

    public static void WriteSubscriptionEnded(FrameBuffer buffer, string topic, string reason)
    {
        buffer.WriteString(topic);
        buffer.WriteString(reason);
    }

    public static (string Topic, string Reason) ReadSubscriptionEnded(ref PayloadReader reader) => (reader.ReadString(), reader.ReadString());
}
