using System.Buffers;
using ProtoBuf;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>
/// Frame bodies in protobuf: an operation's messages with the shared model (<see cref="ProtobufModel"/>:
/// the bytes gRPC sends for the same operation; Empty is no bytes at all), the protocol's own bodies
/// with protobuf-net's default model.
/// </summary>
internal static class Body
{
    public static void WriteMessage<T>(IBufferWriter<byte> writer, T message)
    {
        if (typeof(T) != typeof(EmptyMessage))
        {
            ProtobufModel.Model.Serialize(writer, message);
        }
    }

    public static T ReadMessage<T>(ReadOnlySpan<byte> body)
    {
        if (typeof(T) == typeof(EmptyMessage))
        {
            return (T)(object)EmptyMessage.Instance;
        }

        // A large one-bytes-field body without protobuf-net's cleared copy (OneBytesField); every other body through protobuf-net.
        if (body.Length >= OneBytesField<T>.MinimumBody && OneBytesField<T>.TryRead(body, out var message))
        {
            return message;
        }

        return ProtobufModel.Model.Deserialize<T>(body);
    }

    public static void WriteProtocol<T>(IBufferWriter<byte> writer, T body) => Serializer.Serialize(writer, body);

    public static T ReadProtocol<T>(ReadOnlySpan<byte> body) => Serializer.Deserialize<T>(body);
}
