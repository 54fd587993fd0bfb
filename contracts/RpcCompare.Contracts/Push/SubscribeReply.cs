using System.Runtime.Serialization;

namespace RpcCompare.Contracts.Push;

/// <summary>Reply of a subscribe: the subscription is registered, so any publication accepted after it reaches this subscriber.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class SubscribeReply
{
    /// <summary>The topic's last sequence number when the subscription was registered; the first notification carries a larger one.</summary>
    [DataMember(Order = 1)]
    public long LastSequence { get; set; }
}
