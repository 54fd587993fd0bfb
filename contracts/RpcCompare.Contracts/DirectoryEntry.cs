using System.Runtime.Serialization;

namespace RpcCompare.Contracts;

/// <summary>One entry of a directory listing. A symlink is listed by name only (size 0, time 0): it is not followed.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class DirectoryEntry
{
    [DataMember(Order = 1)]
    public string Name { get; set; } = "";

    /// <summary>Length in bytes; 0 for directories.</summary>
    [DataMember(Order = 2)]
    public long Size { get; set; }

    [DataMember(Order = 3)]
    public bool IsDirectory { get; set; }

    /// <summary>Last write time, UTC ticks (a long, so every serializer agrees to the tick).</summary>
    [DataMember(Order = 4)]
    public long LastWriteTimeUtcTicks { get; set; }
}
