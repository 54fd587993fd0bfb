using System.ComponentModel;
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

    /// <summary>Offset to write at; negative means the middle of the file. Defaults to -1.</summary>
    /// <remarks>
    /// [DefaultValue] tells protobuf-net the default is -1, not 0: without it an explicit 0 would
    /// be left off the wire as "default" and arrive as the constructor's -1.
    /// </remarks>
    [DataMember(Order = 3)]
    [DefaultValue(-1L)]
    public long Offset { get; set; } = -1;

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

    // DataContractSerializer does not run constructors or initializers: a SOAP request that leaves
    // Offset out must still mean "the middle", as it does on every other binding.
    [OnDeserializing]
    private void SetDefaults(StreamingContext context) => Offset = -1;
}
