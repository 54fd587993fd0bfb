using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>Reply of <see cref="IFileService.ReadDirectoryAsync"/>: entries sorted by ordinal name.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class ReadDirectoryReply
{
    [DataMember(Order = 1)]
    public DirectoryEntry[] Entries { get; set; } = [];
}
