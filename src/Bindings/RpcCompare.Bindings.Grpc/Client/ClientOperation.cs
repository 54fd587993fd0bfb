using System.Reflection;
using System.Runtime.CompilerServices;
using Grpc.Core;
using RpcCompare.Bindings.Grpc.Calls;
using RpcCompare.Bindings.Grpc.Mapping;

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
    private readonly Method<TRequest, TReply> _method;

    public ClientOperation(GrpcOperation operation)
    {
        _operation = operation;
        _method = (Method<TRequest, TReply>)operation.Method;
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
        (OperationExpressions.Request<TRequest>(_operation, form).Compile(),
         Array.FindIndex(form.GetParameters(), p => p.ParameterType == typeof(CancellationToken)),
         OperationExpressions.Result<TReply, TResult>(_operation, form).Compile());

    private static CancellationToken TokenOf(object?[] args, int position) =>
        position >= 0 && args[position] is CancellationToken token ? token : default;

    private async Task<TResult> CallAsync<TResult>(CallInvoker invoker, TRequest request, Func<TReply, object?[], TResult> read, object?[] args, CancellationToken cancellationToken)
    {
        using var call = invoker.AsyncUnaryCall(_method, null, new CallOptions(cancellationToken: cancellationToken), request);
        try
        {
            return read(await call.ResponseAsync.ConfigureAwait(false), args);
        }
        catch (RpcException e) when (GrpcFaults.FromRpcException(e, _operation.Description) is { } fault)
        {
            throw fault;
        }
    }

    private async IAsyncEnumerable<TItem> StreamAsync<TItem>(CallInvoker invoker, TRequest request, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var call = invoker.AsyncServerStreamingCall(_method, null, new CallOptions(cancellationToken: cancellationToken), request);
        await foreach (var item in call.ResponseStream.ReadAllAsync(cancellationToken).ConfigureAwait(false))
        {
            yield return (TItem)(object)item;
        }
    }
}
