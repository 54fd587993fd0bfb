using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>Request of <see cref="IFileService.ReadDirectoryAsync"/>.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class ReadDirectoryRequest
{
    /// <summary>Directory relative to the data root; null or empty means the root itself.</summary>
    [DataMember(Order = 1)]
    public string? Path { get; set; }
}
