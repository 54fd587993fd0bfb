using Grpc.Core;

namespace RpcCompare.Bindings.Grpc.Messages;

/// <summary>
/// The message of an operation that takes no value or returns none: google.protobuf.Empty on the
/// wire (zero bytes), as protobuf-net.Grpc and every generated client write it.
/// </summary>
public sealed class EmptyMessage
{
    private EmptyMessage()
    {
    }

    public static EmptyMessage Instance { get; } = new();

    /// <summary>Writes nothing and reads nothing, whatever arrives: an empty message has no fields to keep.</summary>
    public static Marshaller<EmptyMessage> Marshaller { get; } = Marshallers.Create(static _ => [], static _ => Instance);
}
