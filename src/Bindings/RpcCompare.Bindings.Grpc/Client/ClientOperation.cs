using System.Reflection;
using System.Runtime.CompilerServices;
using Grpc.Core;
using RpcCompare.Bindings.Grpc.Calls;
using RpcCompare.Bindings.Grpc.Mapping;
using RpcCompare.Bindings.Grpc.Streams;
using RpcCompare.Protobuf.Mapping;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Grpc.Client;

/// <summary>One form of one operation as a proxy calls it: arguments in, the form's own return value out.</summary>
internal delegate object? FormCall(CallInvoker invoker, object?[] args);

/// <summary>
/// The client side of one operation: for each form of the contract's method (sync, Task,
/// ValueTask, IAsyncEnumerable) a compiled call that builds the request message from the
/// arguments, calls the method and reads the reply back into the result and the out and ref
/// arguments, with WCF faults restored (<see cref="GrpcFaults"/>).
/// </summary>
internal interface IClientOperation
{
    FormCall For(MethodInfo form);
}

/// <inheritdoc cref="IClientOperation"/>
internal sealed class ClientOperation<TRequest, TReply> : IClientOperation
    where TRequest : class
    where TReply : class
{
    private readonly GrpcOperation _operation;
    private readonly Method<TRequest, TReply>? _method;

    public ClientOperation(GrpcOperation operation)
    {
        _operation = operation;
        // Null when a Stream is carried: the method's messages are then chunks, not TRequest or TReply.
        _method = operation.Method as Method<TRequest, TReply>;
    }

    /// <summary>The call of <paramref name="form"/>, one of the operation's methods.</summary>
    public FormCall For(MethodInfo form)
    {
        var returns = form.ReturnType;
        var definition = returns.IsGenericType ? returns.GetGenericTypeDefinition() : null;
        var (name, result) = definition switch
        {
            _ when definition == typeof(Task<>) => (nameof(TaskCall), returns.GetGenericArguments()[0]),
            _ when definition == typeof(ValueTask<>) => (nameof(ValueTaskCall), returns.GetGenericArguments()[0]),
            _ when definition == typeof(IAsyncEnumerable<>) => (nameof(StreamCall), returns.GetGenericArguments()[0]),
            _ when returns == typeof(Task) => (nameof(TaskCall), typeof(object)),
            _ when returns == typeof(ValueTask) => (nameof(VoidValueTaskCall), typeof(object)),
            _ => (nameof(SyncCall), returns == typeof(void) ? typeof(object) : returns),
        };
        return (FormCall)GetType().GetMethod(name, BindingFlags.NonPublic | BindingFlags.Instance)!.MakeGenericMethod(result).Invoke(this, [form])!;
    }

    private FormCall SyncCall<TResult>(MethodInfo form)
    {
        var (request, token, read) = Parts<TResult>(form);
        return (invoker, args) => CallAsync(invoker, request(args), read, args, TokenOf(args, token)).GetAwaiter().GetResult();
    }

    private FormCall TaskCall<TResult>(MethodInfo form)
    {
        var (request, token, read) = Parts<TResult>(form);
        return (invoker, args) => CallAsync(invoker, request(args), read, args, TokenOf(args, token));
    }

    private FormCall ValueTaskCall<TResult>(MethodInfo form)
    {
        var (request, token, read) = Parts<TResult>(form);
        return (invoker, args) => new ValueTask<TResult>(CallAsync(invoker, request(args), read, args, TokenOf(args, token)));
    }

    private FormCall VoidValueTaskCall<TResult>(MethodInfo form)
    {
        var (request, token, read) = Parts<TResult>(form);
        return (invoker, args) => new ValueTask(CallAsync(invoker, request(args), read, args, TokenOf(args, token)));
    }

    private FormCall StreamCall<TItem>(MethodInfo form)
    {
        var (request, token, _) = Parts<TItem>(form);
        return (invoker, args) => StreamAsync<TItem>(invoker, request(args), TokenOf(args, token));
    }

    private (Func<object?[], TRequest> Request, int Token, Func<TReply, object?[], TResult> Read) Parts<TResult>(MethodInfo form) =>
        (OperationExpressions.Request<TRequest>(_operation.Messages, form).Compile(),
         Array.FindIndex(form.GetParameters(), p => p.ParameterType == typeof(CancellationToken)),
         OperationExpressions.Result<TReply, TResult>(_operation.Messages, form).Compile());

    private static CancellationToken TokenOf(object?[] args, int position) =>
        position >= 0 && args[position] is CancellationToken token ? token : default;

    private async Task<TResult> CallAsync<TResult>(CallInvoker invoker, TRequest request, Func<TReply, object?[], TResult> read, object?[] args, CancellationToken cancellationToken)
    {
        if (_operation.MethodType != MethodType.Unary)
        {
            return read(await StreamedCallAsync(invoker, request, cancellationToken).ConfigureAwait(false), args);
        }

        using var call = invoker.AsyncUnaryCall(_method!, null, new CallOptions(cancellationToken: cancellationToken), request);
        try
        {
            return read(await call.ResponseAsync.ConfigureAwait(false), args);
        }
        catch (RpcException e) when (GrpcFaults.FromRpcException(e, _operation.Description) is { } fault)
        {
            throw fault;
        }
    }

    /// <summary>
    /// A call that carries a Stream (TRequest or TReply is then the Stream itself): the request
    /// stream is sent in chunks; a reply stream is returned once its first chunk (or a fault) has
    /// arrived, so a fault surfaces at the call as WCF's does, and reads the rest as the caller reads.
    /// </summary>
    private async Task<TReply> StreamedCallAsync(CallInvoker invoker, TRequest request, CancellationToken cancellationToken)
    {
        var options = new CallOptions(cancellationToken: cancellationToken);
        try
        {
            switch (_operation.MethodType)
            {
                case MethodType.ClientStreaming:
                    using (var upload = invoker.AsyncClientStreamingCall((Method<StreamChunk, TReply>)_operation.Method, null, options))
                    {
                        await SendAsync((Stream)(object)request, upload.RequestStream, upload.ResponseAsync, cancellationToken).ConfigureAwait(false);
                        return await upload.ResponseAsync.ConfigureAwait(false);
                    }

                case MethodType.ServerStreaming:
                    var download = invoker.AsyncServerStreamingCall((Method<TRequest, StreamChunk>)_operation.Method, null, options, request);
                    return await ReplyStreamAsync(download.ResponseStream, download, cancellationToken).ConfigureAwait(false);
                default:
                    var both = invoker.AsyncDuplexStreamingCall((Method<StreamChunk, StreamChunk>)_operation.Method, null, options);
                    // The request goes out while the reply comes back: a service may answer before it has read everything.
                    _ = SendAsync((Stream)(object)request, both.RequestStream, Task.CompletedTask, cancellationToken)
                        .ContinueWith(static (sent, call) => { _ = sent.Exception; ((IDisposable)call!).Dispose(); }, both, CancellationToken.None, TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
                    return await ReplyStreamAsync(both.ResponseStream, both, cancellationToken).ConfigureAwait(false);
            }
        }
        catch (RpcException e)
        {
            throw MapError(e);
        }
    }

    private async Task<TReply> ReplyStreamAsync(IAsyncStreamReader<StreamChunk> chunks, IDisposable call, CancellationToken cancellationToken)
    {
        try
        {
            var first = await chunks.MoveNext(cancellationToken).ConfigureAwait(false) ? chunks.Current : null;
            return (TReply)(object)new ChunkReadStream(chunks, first, MapError, call, cancellationToken);
        }
        catch
        {
            call.Dispose();
            throw;
        }
    }

    /// <summary>Sends the caller's stream and completes the request; when the service ends the call first, its status is what the caller gets.</summary>
    private static async Task SendAsync(Stream source, IClientStreamWriter<StreamChunk> writer, Task response, CancellationToken cancellationToken)
    {
        try
        {
            await StreamChunks.WriteAsync(source, writer, cancellationToken).ConfigureAwait(false);
            await writer.CompleteAsync().ConfigureAwait(false);
        }
        catch (Exception e) when (e is RpcException or InvalidOperationException && !response.IsCompletedSuccessfully)
        {
            // The call ended while we were still sending (a fault, or a service that stopped reading):
            // the response carries the reason.
            await response.ConfigureAwait(false);
            throw;
        }
    }

    private Exception MapError(RpcException exception) =>
        GrpcFaults.FromRpcException(exception, _operation.Description) ?? GrpcErrors.FromRpcException(exception, StreamChunk.Size);

    private async IAsyncEnumerable<TItem> StreamAsync<TItem>(CallInvoker invoker, TRequest request, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var call = invoker.AsyncServerStreamingCall(_method!, null, new CallOptions(cancellationToken: cancellationToken), request);
        await foreach (var item in call.ResponseStream.ReadAllAsync(cancellationToken).ConfigureAwait(false))
        {
            yield return (TItem)(object)item;
        }
    }
}
