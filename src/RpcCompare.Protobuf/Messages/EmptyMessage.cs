namespace RpcCompare.Protobuf.Messages;

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
}
