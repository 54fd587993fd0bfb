using System.Runtime.Serialization;

namespace RpcCompare.Contracts.Push;

/// <summary>Reply of a publish: what the server did with the publication.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class PublishReply
{
    /// <summary>The sequence number the server gave it.</summary>
    [DataMember(Order = 1)]
    public long Sequence { get; set; }

    /// <summary>Subscribers it was queued for.</summary>
    [DataMember(Order = 2)]
    public int Queued { get; set; }

    /// <summary>Subscribers disconnected instead, because their queue was full.</summary>
    [DataMember(Order = 3)]
    public int Disconnected { get; set; }
}
