using Grpc.Core;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Grpc.Messages;

/// <summary>gRPC's marshallers for the protobuf messages of <see cref="ProtobufModel"/>.</summary>
internal static class GrpcMarshallers
{
    /// <summary>Writes nothing and reads nothing, whatever arrives: an empty message has no fields to keep.</summary>
    public static Marshaller<EmptyMessage> Empty { get; } = Marshallers.Create(static _ => [], static _ => EmptyMessage.Instance);

    /// <summary>A marshaller writing <typeparamref name="T"/> with the model: measured first, then written straight into gRPC's buffer.</summary>
    public static Marshaller<T> For<T>()
    {
        var model = ProtobufModel.Model;
        return new Marshaller<T>(
            (value, context) =>
            {
                using var measured = model.Measure(value);
                context.SetPayloadLength(checked((int)measured.Length));
                measured.Serialize(context.GetBufferWriter());
                context.Complete();
            },
            context => model.Deserialize<T>(context.PayloadAsReadOnlySequence()));
    }
}
