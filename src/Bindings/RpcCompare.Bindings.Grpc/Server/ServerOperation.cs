using Grpc.AspNetCore.Server.Model;
using Grpc.Core;
using RpcCompare.Bindings.Grpc.Calls;
using RpcCompare.Bindings.Grpc.Mapping;
using RpcCompare.Bindings.Grpc.Streams;
using RpcCompare.Protobuf.Mapping;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Grpc.Server;

/// <summary>Adds one operation's method to its contract's gRPC service.</summary>
internal interface IServerOperation<TContract>
    where TContract : class
{
    void AddTo(ServiceMethodProviderContext<ContractEndpoint<TContract>> context);
}

/// <summary>
/// The server side of one operation as a gRPC method: the compiled call every protobuf binding
/// shares (<see cref="ServerCalls{TContract, TRequest, TReply}"/>), with streams as chunks and WCF
/// faults turned into statuses (<see cref="GrpcFaults"/>).
/// </summary>
internal sealed class ServerOperation<TContract, TRequest, TReply> : IServerOperation<TContract>
    where TContract : class
    where TRequest : class
    where TReply : class
{
    private readonly GrpcOperation _operation;
    private readonly ServerCalls<TContract, TRequest, TReply> _calls;

    public ServerOperation(GrpcOperation operation)
    {
        _operation = operation;
        _calls = new ServerCalls<TContract, TRequest, TReply>(operation.Messages);
    }

    public void AddTo(ServiceMethodProviderContext<ContractEndpoint<TContract>> context)
    {
        if (_operation.IsServerStreaming)
        {
            var stream = _calls.Compile<IAsyncEnumerable<TReply>>();
            context.AddServerStreamingMethod((Method<TRequest, TReply>)_operation.Method, [], (endpoint, request, writer, call) => StreamAsync(stream(endpoint.Service, request, call.CancellationToken), writer, call.CancellationToken));
            return;
        }

        // A Stream parameter or result is TRequest or TReply itself here; on the wire it is chunks.
        var handler = _calls.Unary();
        switch (_operation.MethodType)
        {
            case MethodType.Unary:
                // The hot path: no closure per call.
                context.AddUnaryMethod((Method<TRequest, TReply>)_operation.Method, [], async (endpoint, request, call) =>
                {
                    try
                    {
                        return await handler(endpoint.Service, request, call.CancellationToken).ConfigureAwait(false);
                    }
                    catch (Exception e) when (GrpcFaults.ToRpcException(e, _operation.Description) is { } status)
                    {
                        throw status;
                    }
                });
                break;
            case MethodType.ClientStreaming:
                context.AddClientStreamingMethod((Method<StreamChunk, TReply>)_operation.Method, [], (endpoint, chunks, call) =>
                    WithFaultsAsync(async () =>
                    {
                        await using var input = new ChunkReadStream(chunks, null, null, null, call.CancellationToken);
                        return await handler(endpoint.Service, (TRequest)(object)input, call.CancellationToken).ConfigureAwait(false);
                    }));
                break;
            case MethodType.ServerStreaming:
                context.AddServerStreamingMethod((Method<TRequest, StreamChunk>)_operation.Method, [], (endpoint, request, writer, call) =>
                    WithFaultsAsync(() => SendAsync(handler(endpoint.Service, request, call.CancellationToken), writer, call.CancellationToken)));
                break;
            default:
                context.AddDuplexStreamingMethod((Method<StreamChunk, StreamChunk>)_operation.Method, [], (endpoint, chunks, writer, call) =>
                    WithFaultsAsync(async () =>
                    {
                        await using var input = new ChunkReadStream(chunks, null, null, null, call.CancellationToken);
                        return await SendAsync(handler(endpoint.Service, (TRequest)(object)input, call.CancellationToken), writer, call.CancellationToken).ConfigureAwait(false);
                    }));
                break;
        }
    }

    /// <summary>Runs a call, turning the WCF faults it throws into statuses (<see cref="GrpcFaults"/>).</summary>
    private async Task<T> WithFaultsAsync<T>(Func<Task<T>> call)
    {
        try
        {
            return await call().ConfigureAwait(false);
        }
        catch (Exception e) when (GrpcFaults.ToRpcException(e, _operation.Description) is { } status)
        {
            throw status;
        }
    }

    /// <summary>Sends the stream the service returned, chunk by chunk, and closes it (as WCF closes a returned stream).</summary>
    private static async Task<long> SendAsync(Task<TReply> result, IServerStreamWriter<StreamChunk> writer, CancellationToken cancellationToken)
    {
        var stream = (Stream)(object)await result.ConfigureAwait(false);
        await using (stream.ConfigureAwait(false))
        {
            return await StreamChunks.WriteAsync(stream, writer, cancellationToken).ConfigureAwait(false);
        }
    }

    private static async Task StreamAsync(IAsyncEnumerable<TReply> items, IServerStreamWriter<TReply> writer, CancellationToken cancellationToken)
    {
        await foreach (var item in items.WithCancellation(cancellationToken).ConfigureAwait(false))
        {
            await writer.WriteAsync(item, cancellationToken).ConfigureAwait(false);
        }
    }
}
