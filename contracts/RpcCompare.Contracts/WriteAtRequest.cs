using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>Request of <see cref="IFileService.WriteAtAsync"/>. Zero-valued members take the documented defaults, so an empty request reproduces the original measurement.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class WriteAtRequest
{
    /// <summary>File relative to the data root. Defaults to the seeded 1 MiB file.</summary>
    [DataMember(Order = 1)]
    public string? Path { get; set; }

    /// <summary>Bytes to write, of the service's own pattern. Defaults (0) to 100; ignored when <see cref="Data"/> is given.</summary>
    [DataMember(Order = 2)]
    public int Count { get; set; }

    /// <summary>
    /// Offset to write at. Not given (null) or negative: the middle of the file, the original
    /// measurement's write. 0 is the start of the file, whichever client sends it.
    /// </summary>
    /// <remarks>
    /// Nullable so that "not given" is visible on every wire instead of hiding in a default a
    /// client cannot express: protobuf-net writes a present value even when it is 0 and the
    /// schema says <c>optional int64 Offset = 3</c> (proto3 explicit presence), so a client built
    /// from server reflection sends an explicit 0; SOAP leaves the element out when it is null.
    /// </remarks>
    [DataMember(Order = 3, EmitDefaultValue = false)]
    public long? Offset { get; set; }

    /// <summary>How many times to write in this one call ("write to a file twice" is 2). Defaults (0) to 1.</summary>
    [DataMember(Order = 4)]
    public int Repeat { get; set; }

    /// <summary>
    /// The bytes to write, when the caller's own content matters (the load command's kill -9 test
    /// writes a sequence number and checks afterwards that every acknowledged write is in the file).
    /// Null or empty: <see cref="Count"/> bytes of the service's pattern.
    /// </summary>
    [DataMember(Order = 5, EmitDefaultValue = false)]
    public byte[]? Data { get; set; }
}
