using System.Buffers.Text;
using System.Globalization;
using RpcCompare.Contracts.Push;
using StackExchange.Redis;

namespace RpcCompare.Push.Redis;

/// <summary>
/// A notification in Redis: protobuf (protobuf-net, the contract's own member numbers) without its
/// sequence, which is the stream entry's id (<c>0-N</c>) in the log and the text before the first
/// space in an announcement on the channel.
/// </summary>
internal static class NotificationCodec
{
    // As the publisher sent it: a Sequence it set is overwritten by Redis's number on the way out (Decode).
    public static byte[] Encode(Notification notification) => NotificationProtobuf.Serialize(notification);

    public static Notification Decode(RedisValue id, RedisValue body) => NotificationProtobuf.Deserialize((byte[]?)body, Sequence(id));

    /// <summary>The N of a stream entry id <c>0-N</c>.</summary>
    public static long Sequence(RedisValue id)
    {
        var text = (string)id!;
        return text.StartsWith("0-", StringComparison.Ordinal) && long.TryParse(text.AsSpan(2), NumberStyles.None, CultureInfo.InvariantCulture, out var sequence)
            ? sequence
            : throw new InvalidDataException($"Stream entry id '{text}' is not one this product writes (0-N).");
    }

    /// <summary>"N protobuf" from the channel; false for anything else.</summary>
    public static bool TryDecodeAnnouncement(RedisValue message, out Notification notification)
    {
        notification = null!;
        var bytes = (byte[]?)message;
        var space = bytes is null ? -1 : Array.IndexOf(bytes, (byte)' ');
        if (space <= 0 || !Utf8Parser.TryParse(bytes.AsSpan(0, space), out long sequence, out var consumed) || consumed != space || sequence < 1)
        {
            return false;
        }

        return NotificationProtobuf.TryDeserialize(bytes.AsSpan(space + 1).ToArray(), sequence, out notification);
    }
}
