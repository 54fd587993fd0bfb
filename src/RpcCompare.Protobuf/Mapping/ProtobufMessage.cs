using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Protobuf.Mapping;

/// <summary>How an operation's values travel in one protobuf message.</summary>
public enum MessageShape
{
    /// <summary>No value: google.protobuf.Empty.</summary>
    Empty,

    /// <summary>The operation's one data contract is the message itself (the wire protobuf-net.Grpc and .proto clients know).</summary>
    Bare,

    /// <summary>An emitted message with one field per value, 1..n (<see cref="EnvelopeTypes"/>).</summary>
    Envelope,

    /// <summary>
    /// A <see cref="System.IO.Stream"/>, the operation's whole request or reply (WCF's streamed
    /// transfer): a stream of <see cref="StreamChunk"/>s. <see cref="ProtobufMessage.Type"/> is
    /// Stream, the value the method sees; <see cref="ProtobufMessage.WireType"/> the chunk.
    /// </summary>
    Chunks,
}

/// <summary>One direction of an operation: the message's shape, its CLR type and, for an envelope, its fields in order.</summary>
public sealed record ProtobufMessage(MessageShape Shape, Type Type, IReadOnlyList<EnvelopeField> Fields)
{
    public static ProtobufMessage Empty { get; } = new(MessageShape.Empty, typeof(EmptyMessage), []);

    public static ProtobufMessage Chunks { get; } = new(MessageShape.Chunks, typeof(Stream), []);

    /// <summary>The type each gRPC message of this direction is.</summary>
    public Type WireType => Shape == MessageShape.Chunks ? typeof(StreamChunk) : Type;

    /// <summary>True when the value is the message itself (a data contract, or the stream the chunks make).</summary>
    public bool IsWhole => Shape is MessageShape.Bare or MessageShape.Chunks;

    public static ProtobufMessage Bare(Type type) => new(MessageShape.Bare, type, []);
}
