using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>Which file to download: a path relative to the data root.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class DownloadRequest
{
    [DataMember(Order = 1)]
    public string Path { get; set; } = "";
}
