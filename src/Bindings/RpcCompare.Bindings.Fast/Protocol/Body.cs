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

    public static T ReadMessage<T>(ReadOnlySpan<byte> body) =>
        typeof(T) == typeof(EmptyMessage) ? (T)(object)EmptyMessage.Instance : ProtobufModel.Model.Deserialize<T>(body);

    public static void WriteProtocol<T>(IBufferWriter<byte> writer, T body) => Serializer.Serialize(writer, body);

    public static T ReadProtocol<T>(ReadOnlySpan<byte> body) => Serializer.Deserialize<T>(body);
}
