using System.Linq.Expressions;
using System.Reflection;
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
/// The server side of one operation: a compiled call of the contract's method (the form
/// <see cref="GrpcOperation.ServerForm"/> chooses) from the request message to the reply message,
/// awaited when the form is asynchronous, with WCF faults turned into statuses (<see cref="GrpcFaults"/>).
/// </summary>
internal sealed class ServerOperation<TContract, TRequest, TReply> : IServerOperation<TContract>
    where TContract : class
    where TRequest : class
    where TReply : class
{
    private readonly GrpcOperation _operation;

    public ServerOperation(GrpcOperation operation)
    {
        _operation = operation;
    }

    public void AddTo(ServiceMethodProviderContext<ContractEndpoint<TContract>> context)
    {
        if (_operation.IsServerStreaming)
        {
            var stream = Compile<IAsyncEnumerable<TReply>>(out _);
            context.AddServerStreamingMethod((Method<TRequest, TReply>)_operation.Method, [], (endpoint, request, writer, call) => StreamAsync(stream(endpoint.Service, request, call.CancellationToken), writer, call.CancellationToken));
            return;
        }

        // A Stream parameter or result is TRequest or TReply itself here; on the wire it is chunks.
        var handler = UnaryHandler();
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

    private Func<TContract, TRequest, CancellationToken, Task<TReply>> UnaryHandler()
    {
        var returns = _operation.ServerForm.ReturnType;
        if (returns == typeof(Task) || returns == typeof(ValueTask))
        {
            var call = Compile<object>(out _, asObject: true);
            var empty = (TReply)(object)EmptyMessage.Instance;
            return returns == typeof(Task)
                ? async (service, request, token) => { await ((Task)call(service, request, token)).ConfigureAwait(false); return empty; }
                : async (service, request, token) => { await ((ValueTask)call(service, request, token)).ConfigureAwait(false); return empty; };
        }

        if (returns.IsGenericType && (returns.GetGenericTypeDefinition() == typeof(Task<>) || returns.GetGenericTypeDefinition() == typeof(ValueTask<>)))
        {
            var result = returns.GetGenericArguments()[0];
            var name = returns.GetGenericTypeDefinition() == typeof(Task<>) ? nameof(FromTask) : nameof(FromValueTask);
            return (Func<TContract, TRequest, CancellationToken, Task<TReply>>)GetType().GetMethod(name, BindingFlags.NonPublic | BindingFlags.Instance)!
                .MakeGenericMethod(result).Invoke(this, [])!;
        }

        var sync = Compile<TReply>(out _, wrapReply: true);
        return (service, request, token) => Task.FromResult(sync(service, request, token));
    }

    private Func<TContract, TRequest, CancellationToken, Task<TReply>> FromTask<TResult>()
    {
        var call = Compile<Task<TResult>>(out _);
        var wrap = WrapResult<TResult>();
        return async (service, request, token) => wrap(await call(service, request, token).ConfigureAwait(false));
    }

    private Func<TContract, TRequest, CancellationToken, Task<TReply>> FromValueTask<TResult>()
    {
        var call = Compile<ValueTask<TResult>>(out _);
        var wrap = WrapResult<TResult>();
        return async (service, request, token) => wrap(await call(service, request, token).ConfigureAwait(false));
    }

    /// <summary>The reply message from an awaited result (async forms have no out or ref values).</summary>
    private Func<TResult, TReply> WrapResult<TResult>()
    {
        var result = Expression.Parameter(typeof(TResult), "result");
        return Expression.Lambda<Func<TResult, TReply>>(OperationExpressions.Reply(_operation.Messages, result, []), result).Compile();
    }

    /// <summary>
    /// Compiles the call of the server form. With <paramref name="wrapReply"/> the lambda returns the
    /// reply message built from the result and the out and ref values (the synchronous form);
    /// otherwise it returns what the method returns.
    /// </summary>
    private Func<TContract, TRequest, CancellationToken, T> Compile<T>(out IReadOnlyList<ParameterExpression> outputs, bool wrapReply = false, bool asObject = false)
    {
        var service = Expression.Parameter(typeof(TContract), "service");
        var request = Expression.Parameter(typeof(TRequest), "request");
        var token = Expression.Parameter(typeof(CancellationToken), "cancellationToken");
        var call = OperationExpressions.Call(_operation.Messages, _operation.ServerForm, service, request, token, out outputs);
        Expression body;
        if (wrapReply)
        {
            var steps = OperationExpressions.LoadRefs(_operation.Messages, request, outputs).ToList();
            ParameterExpression? result = null;
            if (call.Type != typeof(void))
            {
                result = Expression.Variable(call.Type, "result");
                steps.Add(Expression.Assign(result, call));
            }
            else
            {
                steps.Add(call);
            }

            steps.Add(OperationExpressions.Reply(_operation.Messages, result, outputs));
            body = Expression.Block(typeof(TReply), result is null ? outputs : [.. outputs, result], steps);
        }
        else
        {
            body = asObject ? Expression.Convert(call, typeof(object)) : call;
        }

        return Expression.Lambda<Func<TContract, TRequest, CancellationToken, T>>(body, service, request, token).Compile();
    }

    private static async Task StreamAsync(IAsyncEnumerable<TReply> items, IServerStreamWriter<TReply> writer, CancellationToken cancellationToken)
    {
        await foreach (var item in items.WithCancellation(cancellationToken).ConfigureAwait(false))
        {
            await writer.WriteAsync(item, cancellationToken).ConfigureAwait(false);
        }
    }
}
