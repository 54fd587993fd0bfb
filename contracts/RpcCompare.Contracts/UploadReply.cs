using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>Where an upload was stored (relative to the data root) and how many bytes it had.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class UploadReply
{
    [DataMember(Order = 1)]
    public string Path { get; set; } = "";

    [DataMember(Order = 2)]
    public long Length { get; set; }
}
