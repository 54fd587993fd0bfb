using System.Reflection;
using RpcCompare.Protobuf.Mapping;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>One form of one operation as the proxy calls it: arguments in, the form's own return value out.</summary>
internal delegate object? FastFormCall(FastConnectionPool pool, object?[] args);

/// <summary>The client side of one operation: a compiled call per form of the contract's method.</summary>
internal interface IFastClientOperation
{
    FastFormCall For(MethodInfo form);
}

/// <summary>
/// The reflection path of the client: the request message from the arguments and the result and
/// out/ref values from the reply, compiled once per form from the shared mapping
/// (<see cref="OperationExpressions"/>). A synchronous form is one blocking call on a pooled
/// connection; a Task or ValueTask form is a call on the pool's multiplexed connection, or (with
/// <see cref="FastTaskCalls.OnCallerThread"/>, and always for a streamed operation) the blocking
/// call returned as a completed task.
/// </summary>
internal sealed class FastClientOperation<TRequest, TReply> : IFastClientOperation
    where TRequest : class
    where TReply : class
{
    private readonly FastContract _contract;
    private readonly int _index;
    private readonly OperationMessages _operation;

    public FastClientOperation(FastContract contract, int index)
    {
        _contract = contract;
        _index = index;
        _operation = contract.Messages.Operations[index];
    }

    public FastFormCall For(MethodInfo form)
    {
        var returns = form.ReturnType;
        var definition = returns.IsGenericType ? returns.GetGenericTypeDefinition() : null;
        var (name, result) = definition switch
        {
            _ when definition == typeof(Task<>) => (nameof(TaskCall), returns.GetGenericArguments()[0]),
            _ when definition == typeof(ValueTask<>) => (nameof(ValueTaskCall), returns.GetGenericArguments()[0]),
            _ when returns == typeof(Task) => (nameof(VoidTaskCall), typeof(object)),
            _ when returns == typeof(ValueTask) => (nameof(VoidValueTaskCall), typeof(object)),
            _ => (nameof(SyncCall), returns == typeof(void) ? typeof(object) : returns),
        };
        return (FastFormCall)GetType().GetMethod(name, BindingFlags.NonPublic | BindingFlags.Instance)!.MakeGenericMethod(result).Invoke(this, [form])!;
    }

    private FastFormCall SyncCall<TResult>(MethodInfo form)
    {
        var call = Compile<TResult>(form).OnCallerThread;
        return (pool, args) => call(pool, args);
    }

    private FastFormCall TaskCall<TResult>(MethodInfo form)
    {
        var calls = Compile<TResult>(form);
        return (pool, args) => calls.Start(pool, args);
    }

    private FastFormCall VoidTaskCall<TResult>(MethodInfo form)
    {
        var calls = Compile<TResult>(form);
        return (pool, args) => (Task)calls.Start(pool, args);
    }

    private FastFormCall ValueTaskCall<TResult>(MethodInfo form)
    {
        var calls = Compile<TResult>(form);
        return (pool, args) => new ValueTask<TResult>(calls.Start(pool, args));
    }

    private FastFormCall VoidValueTaskCall<TResult>(MethodInfo form)
    {
        var calls = Compile<TResult>(form);
        return (pool, args) => new ValueTask(calls.Start(pool, args));
    }

    private FormCalls<TResult> Compile<TResult>(MethodInfo form)
    {
        var request = OperationExpressions.Request<TRequest>(_operation, form).Compile();
        var read = OperationExpressions.Result<TReply, TResult>(_operation, form).Compile();
        var token = Array.FindIndex(form.GetParameters(), p => p.ParameterType == typeof(CancellationToken));
        var description = _operation.Description;
        var streamIn = _operation.Request.Shape == MessageShape.Chunks;
        var streamOut = _operation.Reply.Shape == MessageShape.Chunks;
        BodyReader<TReply> readReply = body => Replies.Read<TReply>(body, description);

        CancellationToken Cancellation(object?[] args) => token >= 0 && args[token] is CancellationToken given ? given : CancellationToken.None;

        TResult OnCallerThread(FastConnectionPool pool, object?[] args)
        {
            var reply = pool.Call<TRequest, TReply>(_contract, _index, description, request(args), streamIn, streamOut, Cancellation(args));

            // A one-way call has no reply to read (its TReply is Empty and its result void).
            return description.IsOneWay ? default! : read(reply, args);
        }

        Task<TResult> Multiplexed(FastConnectionPool pool, object?[] args) =>
            pool.Multiplexed().CallAsync(_contract, _index, description, request(args), readReply, read, args, Cancellation(args));

        // Streamed calls hold a connection for the whole stream: they stay on the caller's thread.
        return new FormCalls<TResult>(OnCallerThread, streamIn || streamOut ? null : Multiplexed);
    }

    /// <summary>A form's two ways to call: blocking on the caller's thread, and multiplexed (null where the operation cannot be).</summary>
    private sealed record FormCalls<TResult>(Func<FastConnectionPool, object?[], TResult> OnCallerThread, Func<FastConnectionPool, object?[], Task<TResult>>? Multiplexed)
    {
        /// <summary>A Task form's call, as the pool's options say; whatever fails comes back in the task.</summary>
        public Task<TResult> Start(FastConnectionPool pool, object?[] args)
        {
            try
            {
                return Multiplexed is not null && pool.Multiplexes(streamed: false)
                    ? Multiplexed(pool, args)
                    : Task.FromResult(OnCallerThread(pool, args));
            }
            catch (Exception e)
            {
                return Task.FromException<TResult>(e);
            }
        }
    }
}
