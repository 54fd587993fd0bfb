using RpcCompare.Bindings.Grpc.Messages;

namespace RpcCompare.Bindings.Grpc.Mapping;

/// <summary>How an operation's values travel in one gRPC message.</summary>
internal enum MessageShape
{
    /// <summary>No value: google.protobuf.Empty.</summary>
    Empty,

    /// <summary>The operation's one data contract is the message itself (the wire protobuf-net.Grpc and .proto clients know).</summary>
    Bare,

    /// <summary>An emitted message with one field per value, 1..n (<see cref="EnvelopeTypes"/>).</summary>
    Envelope,
}

/// <summary>One direction of an operation: the message's shape, its CLR type and, for an envelope, its fields in order.</summary>
internal sealed record GrpcMessage(MessageShape Shape, Type Type, IReadOnlyList<EnvelopeField> Fields)
{
    public static GrpcMessage Empty { get; } = new(MessageShape.Empty, typeof(EmptyMessage), []);

    public static GrpcMessage Bare(Type type) => new(MessageShape.Bare, type, []);
}
