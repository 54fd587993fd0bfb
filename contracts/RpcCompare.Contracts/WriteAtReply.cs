using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>Reply of <see cref="IFileService.WriteAtAsync"/>.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class WriteAtReply
{
    /// <summary>Total bytes written across all repeats.</summary>
    [DataMember(Order = 1)]
    public long BytesWritten { get; set; }

    /// <summary>Offset actually written at (the resolved default when the request said "middle").</summary>
    [DataMember(Order = 2)]
    public long Offset { get; set; }

    [DataMember(Order = 3)]
    public long FileLength { get; set; }
}
