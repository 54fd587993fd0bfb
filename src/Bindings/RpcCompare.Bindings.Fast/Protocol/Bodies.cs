using ProtoBuf;

namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>
/// A Bind frame's body: a contract by its proto service name and the operations the client will
/// call, by name. Ids are per connection, so client and server builds need agree only on names.
/// </summary>
[ProtoContract]
internal sealed class BindBody
{
    [ProtoMember(1)]
    public string Service { get; set; } = "";

    [ProtoMember(2)]
    public List<string> Operations { get; set; } = [];
}

/// <summary>A Bound frame's body: an id per operation asked, in order; 0 where the server does not serve it, with the reason beside it.</summary>
[ProtoContract]
internal sealed class BoundBody
{
    [ProtoMember(1, IsPacked = true)]
    public List<uint> Ids { get; set; } = [];

    [ProtoMember(2)]
    public List<string> Refusals { get; set; } = [];
}

/// <summary>
/// An Error frame's body: a refusal (<see cref="Contracts.RpcErrorCode"/> and message), or a WCF
/// fault (its reason, code and, for a declared FaultException&lt;T&gt;, the detail's fault name
/// and the detail in protobuf), as gRPC's status and trailers carry them.
/// </summary>
[ProtoContract]
internal sealed class ErrorBody
{
    [ProtoMember(1)]
    public int Code { get; set; }

    [ProtoMember(2)]
    public string Message { get; set; } = "";

    [ProtoMember(3)]
    public bool IsFault { get; set; }

    [ProtoMember(4)]
    public string FaultName { get; set; } = "";

    [ProtoMember(5)]
    public byte[]? FaultDetail { get; set; }

    [ProtoMember(6)]
    public string FaultCode { get; set; } = "";
}

/// <summary>A SubscriptionEnded frame's body: which subscription the server ended, and why.</summary>
[ProtoContract]
internal sealed class SubscriptionEndedBody
{
    [ProtoMember(1)]
    public string Topic { get; set; } = "";

    [ProtoMember(2)]
    public string Reason { get; set; } = "";
}
