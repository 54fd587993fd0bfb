using System.Runtime.Serialization;

namespace RpcCompare.Contracts.Push;

/// <summary>Request of the subscribe and unsubscribe operations.</summary>
[DataContract(Namespace = ServiceNames.Namespace)]
public sealed class SubscribeRequest
{
    /// <summary>The topic: any non-empty name of at most <see cref="PushLimits.MaxTopicLength"/> characters.</summary>
    [DataMember(Order = 1)]
    public string Topic { get; set; } = "";
}
