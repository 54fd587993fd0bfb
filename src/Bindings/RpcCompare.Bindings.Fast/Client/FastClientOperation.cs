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
/// (<see cref="OperationExpressions"/>), around one blocking call on a pooled connection. Task and
/// ValueTask forms return an already completed task (the call ran on the caller's thread).
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
        var call = Compile<TResult>(form);
        return (pool, args) => call(pool, args);
    }

    private FastFormCall TaskCall<TResult>(MethodInfo form)
    {
        var call = Compile<TResult>(form);
        return (pool, args) =>
        {
            try
            {
                return Task.FromResult(call(pool, args));
            }
            catch (Exception e)
            {
                return Task.FromException<TResult>(e);
            }
        };
    }

    private FastFormCall VoidTaskCall<TResult>(MethodInfo form)
    {
        var call = Compile<TResult>(form);
        return (pool, args) =>
        {
            try
            {
                call(pool, args);
                return Task.CompletedTask;
            }
            catch (Exception e)
            {
                return Task.FromException(e);
            }
        };
    }

    private FastFormCall ValueTaskCall<TResult>(MethodInfo form)
    {
        var call = Compile<TResult>(form);
        return (pool, args) =>
        {
            try
            {
                return new ValueTask<TResult>(call(pool, args));
            }
            catch (Exception e)
            {
                return new ValueTask<TResult>(Task.FromException<TResult>(e));
            }
        };
    }

    private FastFormCall VoidValueTaskCall<TResult>(MethodInfo form)
    {
        var call = Compile<TResult>(form);
        return (pool, args) =>
        {
            try
            {
                call(pool, args);
                return ValueTask.CompletedTask;
            }
            catch (Exception e)
            {
                return new ValueTask(Task.FromException(e));
            }
        };
    }

    private Func<FastConnectionPool, object?[], TResult> Compile<TResult>(MethodInfo form)
    {
        var request = OperationExpressions.Request<TRequest>(_operation, form).Compile();
        var read = OperationExpressions.Result<TReply, TResult>(_operation, form).Compile();
        var token = Array.FindIndex(form.GetParameters(), p => p.ParameterType == typeof(CancellationToken));
        var description = _operation.Description;
        var streamIn = _operation.Request.Shape == MessageShape.Chunks;
        var streamOut = _operation.Reply.Shape == MessageShape.Chunks;
        return (pool, args) =>
        {
            var cancellation = token >= 0 && args[token] is CancellationToken given ? given : CancellationToken.None;
            cancellation.ThrowIfCancellationRequested();

            var connection = pool.Rent();
            TReply reply;
            var handedOver = false;
            try
            {
                reply = connection.Call<TRequest, TReply>(_contract, _index, description, request(args), streamIn, streamOut, pool, cancellation);
                // A reply stream keeps the connection until the caller has read it (ReplyStream gives it back).
                handedOver = streamOut;
            }
            finally
            {
                if (!handedOver)
                {
                    pool.Return(connection);
                }
            }

            // A one-way call has no reply to read (its TReply is Empty and its result void).
            return description.IsOneWay ? default! : read(reply, args);
        };
    }
}
