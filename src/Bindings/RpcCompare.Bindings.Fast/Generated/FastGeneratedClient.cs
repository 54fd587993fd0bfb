using System.ComponentModel;
using RpcCompare.Bindings.Fast.Client;
using RpcCompare.Description;

namespace RpcCompare.Bindings.Fast.Generated;

/// <summary>
/// What a generated proxy calls: one contract's operations over one address's connections, by the
/// generator's operation index. The same calls the reflection proxy makes, minus the argument array:
/// a synchronous form blocks on a pooled connection; a Task form is multiplexed (or, as the options
/// or a streamed operation say, the blocking call returned as a completed task).
/// </summary>
[EditorBrowsable(EditorBrowsableState.Never)]
public sealed class FastGeneratedClient
{
    private readonly FastConnectionPool _pool;
    private readonly FastContract _contract;
    private readonly ClientOperation[] _operations;

    internal FastGeneratedClient(FastConnectionPool pool, FastContract contract, ClientOperation[] operations)
    {
        _pool = pool;
        _contract = contract;
        _operations = operations;
    }

    /// <summary>A synchronous form's call: the reply (null for a one-way call), or the error the server answered, thrown.</summary>
    public TReply Call<TRequest, TReply>(int operation, TRequest request, CancellationToken cancellationToken)
    {
        var called = _operations[operation];
        return _pool.Call<TRequest, TReply>(_contract, called.Index, called.Description, request, called.StreamIn, called.StreamOut, cancellationToken);
    }

    /// <summary>
    /// A Task form's call. <paramref name="map"/> turns the reply into the method's result (null when
    /// the reply is the result); its second argument is the reflection path's argument array, which
    /// generated code has no use for. Whatever fails comes back in the task.
    /// </summary>
    public Task<TResult> CallAsync<TRequest, TReply, TResult>(int operation, TRequest request, Func<TReply, object?[], TResult>? map, CancellationToken cancellationToken)
    {
        var called = _operations[operation];
        try
        {
            if (_pool.Multiplexes(streamed: called.StreamIn || called.StreamOut))
            {
                return _pool.Multiplexed().CallAsync(_contract, called.Index, called.Description, request, (BodyReader<TReply>)called.ReadReply, map, [], cancellationToken);
            }

            var reply = Call<TRequest, TReply>(operation, request, cancellationToken);
            return Task.FromResult(map is null ? (TResult)(object)reply! : map(reply, []));
        }
        catch (Exception e)
        {
            return Task.FromException<TResult>(e);
        }
    }

    /// <summary>One generated operation as the connections know it: its index in the contract model, its description, how its bodies travel.</summary>
    internal sealed record ClientOperation(int Index, OperationDescription Description, bool StreamIn, bool StreamOut, object ReadReply);
}
