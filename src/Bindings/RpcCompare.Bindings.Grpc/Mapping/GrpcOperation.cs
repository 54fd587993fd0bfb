using System.Reflection;
using Grpc.Core;
using RpcCompare.Bindings.Grpc.Messages;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Grpc.Mapping;

/// <summary>
/// One operation as the grpc-* bindings carry it: a unary method (or streaming, for an
/// IAsyncEnumerable result or a Stream) of the contract's service, its request and reply messages, and the
/// form of the contract's method the server calls. Both sides build their calls from this one
/// description.
/// </summary>
internal sealed class GrpcOperation
{
    private static readonly MethodInfo s_createMethod = typeof(GrpcOperation).GetMethod(nameof(CreateMethod), BindingFlags.NonPublic | BindingFlags.Static)!;

    public GrpcOperation(OperationDescription description, string serviceName, string name, GrpcMessage request, GrpcMessage reply, Type? streamItem)
    {
        Description = description;
        ServiceName = serviceName;
        Name = name;
        Request = request;
        Reply = reply;
        StreamItem = streamItem;
        MethodType = (request.Shape == MessageShape.Chunks, reply.Shape == MessageShape.Chunks || streamItem is not null) switch
        {
            (false, false) => MethodType.Unary,
            (true, false) => MethodType.ClientStreaming,
            (false, true) => MethodType.ServerStreaming,
            (true, true) => MethodType.DuplexStreaming,
        };
        Method = s_createMethod.MakeGenericMethod(request.WireType, reply.WireType).Invoke(null, [this])!;
    }

    public OperationDescription Description { get; }

    /// <summary>The gRPC service name (e.g. <c>rpccompare.v1.FileService</c>).</summary>
    public string ServiceName { get; }

    /// <summary>The gRPC method name: the WCF operation name (Async removed from a stream's method name too).</summary>
    public string Name { get; }

    public GrpcMessage Request { get; }

    public GrpcMessage Reply { get; }

    /// <summary>The item type of an IAsyncEnumerable result (a server-streaming method); null for unary.</summary>
    public Type? StreamItem { get; }

    public bool IsServerStreaming => StreamItem is not null;

    /// <summary>How the call travels: unary, or streaming where a Stream or an IAsyncEnumerable is carried (read on every client call: decided once).</summary>
    public MethodType MethodType { get; }

    /// <summary>The <see cref="Method{TRequest, TResponse}"/> both sides call.</summary>
    public object Method { get; }

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

    private static Method<TRequest, TReply> CreateMethod<TRequest, TReply>(GrpcOperation operation)
        where TRequest : class
        where TReply : class => new(
            operation.MethodType,
            operation.ServiceName,
            operation.Name,
            MarshallerOf<TRequest>(),
            MarshallerOf<TReply>());

    private static Marshaller<T> MarshallerOf<T>() =>
        typeof(T) == typeof(EmptyMessage) ? (Marshaller<T>)(object)EmptyMessage.Marshaller : GrpcMessageModel.Marshaller<T>();
}
