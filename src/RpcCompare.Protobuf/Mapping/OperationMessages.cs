using System.Reflection;
using RpcCompare.Description;

namespace RpcCompare.Protobuf.Mapping;

/// <summary>
/// One operation as the protobuf bindings carry it: its name, its request and reply messages and the
/// form of the contract's method the server calls. gRPC wraps it in a method of its service; the
/// fast binding sends the same messages in its frames, so a body is byte-for-byte the gRPC message.
/// </summary>
public sealed class OperationMessages
{
    public OperationMessages(OperationDescription description, string serviceName, string name, ProtobufMessage request, ProtobufMessage reply, Type? streamItem)
    {
        Description = description;
        ServiceName = serviceName;
        Name = name;
        Request = request;
        Reply = reply;
        StreamItem = streamItem;
    }

    public OperationDescription Description { get; }

    /// <summary>The proto service name (e.g. <c>rpccompare.v1.FileService</c>).</summary>
    public string ServiceName { get; }

    /// <summary>The method name: the WCF operation name (Async removed from a stream's method name too).</summary>
    public string Name { get; }

    public ProtobufMessage Request { get; }

    public ProtobufMessage Reply { get; }

    /// <summary>The item type of an IAsyncEnumerable result (a server stream); null for unary.</summary>
    public Type? StreamItem { get; }

    public bool IsServerStreaming => StreamItem is not null;

    /// <summary>True when the reply envelope's first field is the return value (the out and ref values follow it).</summary>
    public bool ReplyHasResult => Reply.Shape == MessageShape.Envelope && Description.Return is not null;

    /// <summary>
    /// The form of the contract's method the server calls: the synchronous one when values come
    /// back through out or ref parameters (async forms cannot have them), else Task, ValueTask, then sync.
    /// </summary>
    public MethodInfo ServerForm => Description.Outputs.Count > 0 || IsServerStreaming
        ? Description.SyncMethod!
        : Description.TaskMethod ?? Description.ValueTaskMethod ?? Description.SyncMethod!;

    public override string ToString() => $"/{ServiceName}/{Name}";
}
