using System.Reflection;
using Grpc.Core;
using RpcCompare.Bindings.Grpc.Messages;
using RpcCompare.Description;
using RpcCompare.Protobuf.Mapping;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Grpc.Mapping;

/// <summary>
/// One operation as the grpc-* bindings carry it: its protobuf messages (<see cref="OperationMessages"/>,
/// shared with the fast binding) as a unary method of the contract's service, or a streaming one for
/// an IAsyncEnumerable result or a Stream. Both sides build their calls from this one description.
/// </summary>
internal sealed class GrpcOperation
{
    private static readonly MethodInfo s_createMethod = typeof(GrpcOperation).GetMethod(nameof(CreateMethod), BindingFlags.NonPublic | BindingFlags.Static)!;

    public GrpcOperation(OperationMessages messages)
    {
        Messages = messages;
        MethodType = (messages.Request.Shape == MessageShape.Chunks, messages.Reply.Shape == MessageShape.Chunks || messages.IsServerStreaming) switch
        {
            (false, false) => MethodType.Unary,
            (true, false) => MethodType.ClientStreaming,
            (false, true) => MethodType.ServerStreaming,
            (true, true) => MethodType.DuplexStreaming,
        };
        Method = s_createMethod.MakeGenericMethod(messages.Request.WireType, messages.Reply.WireType).Invoke(null, [this])!;
    }

    /// <summary>The operation's messages, as every protobuf binding writes them.</summary>
    public OperationMessages Messages { get; }

    public OperationDescription Description => Messages.Description;

    /// <summary>The gRPC service name (e.g. <c>rpccompare.v1.FileService</c>).</summary>
    public string ServiceName => Messages.ServiceName;

    /// <summary>The gRPC method name: the WCF operation name (Async removed from a stream's method name too).</summary>
    public string Name => Messages.Name;

    public ProtobufMessage Request => Messages.Request;

    public ProtobufMessage Reply => Messages.Reply;

    /// <summary>The item type of an IAsyncEnumerable result (a server-streaming method); null for unary.</summary>
    public Type? StreamItem => Messages.StreamItem;

    public bool IsServerStreaming => Messages.IsServerStreaming;

    /// <summary>How the call travels: unary, or streaming where a Stream or an IAsyncEnumerable is carried (read on every client call: decided once).</summary>
    public MethodType MethodType { get; }

    /// <summary>The <see cref="Method{TRequest, TResponse}"/> both sides call.</summary>
    public object Method { get; }

    /// <summary>True when the reply envelope's first field is the return value (the out and ref values follow it).</summary>
    public bool ReplyHasResult => Messages.ReplyHasResult;

    /// <inheritdoc cref="OperationMessages.ServerForm"/>
    public MethodInfo ServerForm => Messages.ServerForm;

    public override string ToString() => Messages.ToString();

    private static Method<TRequest, TReply> CreateMethod<TRequest, TReply>(GrpcOperation operation)
        where TRequest : class
        where TReply : class => new(
            operation.MethodType,
            operation.ServiceName,
            operation.Name,
            MarshallerOf<TRequest>(),
            MarshallerOf<TReply>());

    private static Marshaller<T> MarshallerOf<T>() =>
        typeof(T) == typeof(EmptyMessage) ? (Marshaller<T>)(object)GrpcMarshallers.Empty : GrpcMarshallers.For<T>();
}
