using System.Runtime.Serialization;

namespace RpcCompare.Contracts.Push;

/// <summary>Request of the subscribe and unsubscribe operations.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class SubscribeRequest
{
    /// <summary>The topic: any non-empty name of at most <see cref="PushLimits.MaxTopicLength"/> characters.</summary>
    [DataMember(Order = 1)]
    public string Topic { get; set; } = "";

    /// <summary>
    /// To resume after a lost connection: the last sequence number the subscriber received on this
    /// topic. A host that shares its topics through a broker first sends the newest publications the
    /// topic's log holds after it (at most half a subscriber's queue), then the live ones; numbers
    /// missing between this and the first one sent are gone; nothing up to this number is sent again.
    /// Not given (null): only what is published from now on; 0 resumes a subscription that had received
    /// nothing yet. Ignored by unsubscribe.
    /// </summary>
    [DataMember(Order = 2, EmitDefaultValue = false)]
    public long? After { get; set; }
}
