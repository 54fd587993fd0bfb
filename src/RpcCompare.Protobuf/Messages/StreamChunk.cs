using ProtoBuf;

namespace RpcCompare.Protobuf.Messages;

/// <summary>
/// One piece of a <see cref="Stream"/> parameter or result: a gRPC streaming call sends the bytes as
/// a sequence of these (<c>message StreamChunk { bytes data = 1; }</c>), each small enough to stay
/// off the large-object heap, so a stream of any length passes with flat memory on both sides.
/// </summary>
[ProtoContract(Name = "StreamChunk")]
public sealed class StreamChunk
{
    /// <summary>Bytes per chunk: 64 KiB, one loopback segment, below the 85,000-byte large-object threshold.</summary>
    public const int Size = 64 * 1024;

    [ProtoMember(1, Name = "data")]
    public byte[] Data { get; set; } = [];
}
