using System.Runtime.CompilerServices;

namespace RpcCompare.Workloads;

/// <summary>
/// The named calls of a workload, in the order the report lists them. Each call is one
/// invocation of one operation on a client proxy; synchronous, Task and ValueTask operations are
/// all accepted, and an asynchronous one is awaited before the next call starts.
/// </summary>
/// <typeparam name="TContract">The contract the calls are made on.</typeparam>
public sealed class RpcWorkloadCalls<TContract>
    where TContract : class
{
    private readonly List<RpcWorkloadCall<TContract>> _calls = [];

    /// <summary>The calls added so far.</summary>
    public IReadOnlyList<RpcWorkloadCall<TContract>> Calls => _calls;

    // Overload priorities: every lambda converts to Action<T> (an async one as async void, a
    // ValueTask one by dropping the result), so Action<T> is chosen only when nothing else applies,
    // and an async lambda that returns nothing is a Task before it is a ValueTask.

    /// <summary>Adds a call to a synchronous operation.</summary>
    /// <param name="name">The row's name in the report: usually the operation, with what sets this call apart ("PlaceOrder 100 lines").</param>
    /// <param name="call">Makes the call on the proxy it is given.</param>
    [OverloadResolutionPriority(-2)]
    public RpcWorkloadCalls<TContract> Add(string name, Action<TContract> call)
    {
        ArgumentNullException.ThrowIfNull(call);
        return Add(name, proxy =>
        {
            call(proxy);
            return Task.CompletedTask;
        });
    }

    /// <summary>Adds a call to a Task-based operation.</summary>
    /// <param name="name">The row's name in the report.</param>
    /// <param name="call">Makes the call on the proxy it is given.</param>
    public RpcWorkloadCalls<TContract> Add(string name, Func<TContract, Task> call)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(call);
        if (_calls.Any(c => c.Name == name))
        {
            throw new ArgumentException($"The workload already has a call named '{name}'; each row of the report needs its own name.", nameof(name));
        }

        _calls.Add(new RpcWorkloadCall<TContract>(name, call));
        return this;
    }

    /// <summary>Adds a call to a ValueTask operation.</summary>
    /// <param name="name">The row's name in the report.</param>
    /// <param name="call">Makes the call on the proxy it is given.</param>
    [OverloadResolutionPriority(-1)]
    public RpcWorkloadCalls<TContract> Add(string name, Func<TContract, ValueTask> call)
    {
        ArgumentNullException.ThrowIfNull(call);
        return Add(name, proxy => call(proxy).AsTask());
    }

    /// <summary>Adds a call to a ValueTask operation with a result.</summary>
    /// <typeparam name="TResult">The operation's result, not kept.</typeparam>
    /// <param name="name">The row's name in the report.</param>
    /// <param name="call">Makes the call on the proxy it is given.</param>
    public RpcWorkloadCalls<TContract> Add<TResult>(string name, Func<TContract, ValueTask<TResult>> call)
    {
        ArgumentNullException.ThrowIfNull(call);
        return Add(name, proxy => call(proxy).AsTask());
    }
}

/// <summary>One call of a workload: its row name and the delegate that makes it.</summary>
/// <typeparam name="TContract">The contract the call is made on.</typeparam>
/// <param name="Name">The row's name in the report.</param>
/// <param name="Invoke">Makes the call on a proxy; the returned task ends when the reply has arrived.</param>
public sealed record RpcWorkloadCall<TContract>(string Name, Func<TContract, Task> Invoke)
    where TContract : class;
