using System.Linq.Expressions;
using System.Reflection;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Protobuf.Mapping;

/// <summary>
/// The server's call of one operation, compiled once: from the request message to the reply
/// message through the form of the contract's method <see cref="OperationMessages.ServerForm"/>
/// chooses, awaited when that form is asynchronous. Every protobuf binding dispatches through it,
/// so the forms, out and ref values and empty replies mean the same on each.
/// </summary>
public sealed class ServerCalls<TContract, TRequest, TReply>
    where TContract : class
    where TRequest : class
    where TReply : class
{
    private readonly OperationMessages _operation;

    public ServerCalls(OperationMessages operation)
    {
        _operation = operation;
    }

    /// <summary>
    /// The whole call: <c>(service, request, cancellationToken) =&gt; reply</c>. A synchronous form
    /// runs on the caller's thread and returns a completed task.
    /// </summary>
    public Func<TContract, TRequest, CancellationToken, Task<TReply>> Unary()
    {
        var returns = _operation.ServerForm.ReturnType;
        if (returns == typeof(Task) || returns == typeof(ValueTask))
        {
            var call = Compile<object>(asObject: true);
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

        var sync = Compile<TReply>(wrapReply: true);
        return (service, request, token) => Task.FromResult(sync(service, request, token));
    }

    /// <summary>
    /// Compiles the call of the server form. With <paramref name="wrapReply"/> the lambda returns the
    /// reply message built from the result and the out and ref values (the synchronous form);
    /// otherwise it returns what the method returns (an IAsyncEnumerable, say), boxed with <paramref name="asObject"/>.
    /// </summary>
    public Func<TContract, TRequest, CancellationToken, T> Compile<T>(bool wrapReply = false, bool asObject = false)
    {
        var service = Expression.Parameter(typeof(TContract), "service");
        var request = Expression.Parameter(typeof(TRequest), "request");
        var token = Expression.Parameter(typeof(CancellationToken), "cancellationToken");
        var call = OperationExpressions.Call(_operation, _operation.ServerForm, service, request, token, out var outputs);
        Expression body;
        if (wrapReply)
        {
            var steps = OperationExpressions.LoadRefs(_operation, request, outputs).ToList();
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

            steps.Add(OperationExpressions.Reply(_operation, result, outputs));
            body = Expression.Block(typeof(TReply), result is null ? outputs : [.. outputs, result], steps);
        }
        else
        {
            body = asObject ? Expression.Convert(call, typeof(object)) : call;
        }

        return Expression.Lambda<Func<TContract, TRequest, CancellationToken, T>>(body, service, request, token).Compile();
    }

    private Func<TContract, TRequest, CancellationToken, Task<TReply>> FromTask<TResult>()
    {
        var call = Compile<Task<TResult>>();
        var wrap = WrapResult<TResult>();
        return async (service, request, token) => wrap(await call(service, request, token).ConfigureAwait(false));
    }

    private Func<TContract, TRequest, CancellationToken, Task<TReply>> FromValueTask<TResult>()
    {
        var call = Compile<ValueTask<TResult>>();
        var wrap = WrapResult<TResult>();
        return async (service, request, token) => wrap(await call(service, request, token).ConfigureAwait(false));
    }

    /// <summary>The reply message from an awaited result (async forms have no out or ref values).</summary>
    private Func<TResult, TReply> WrapResult<TResult>()
    {
        var result = Expression.Parameter(typeof(TResult), "result");
        return Expression.Lambda<Func<TResult, TReply>>(OperationExpressions.Reply(_operation, result, []), result).Compile();
    }
}
