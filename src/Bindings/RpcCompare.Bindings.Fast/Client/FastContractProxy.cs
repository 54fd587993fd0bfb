using System.Collections.Concurrent;
using System.Collections.Frozen;
using System.Reflection;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>
/// A contract's client over the fast binding: a <see cref="DispatchProxy"/> of the contract whose
/// every method (every form of every carried operation) goes through the call compiled for it.
/// </summary>
internal class FastContractProxy : DispatchProxy
{
    private static readonly ConcurrentDictionary<Type, FrozenDictionary<MethodInfo, FastFormCall>> Calls = new();
    private FrozenDictionary<MethodInfo, FastFormCall> _calls = FrozenDictionary<MethodInfo, FastFormCall>.Empty;
    private FastConnectionPool? _pool;

    internal static TContract Create<TContract>(FastConnectionPool pool)
        where TContract : class
    {
        var proxy = DispatchProxy.Create<TContract, FastContractProxy>();
        var self = (FastContractProxy)(object)proxy;
        self._calls = Calls.GetOrAdd(typeof(TContract), Build);
        self._pool = pool;
        return proxy;
    }

    protected override object? Invoke(MethodInfo? targetMethod, object?[]? args)
    {
        ArgumentNullException.ThrowIfNull(targetMethod);
        return _calls.TryGetValue(targetMethod, out var call)
            ? call(_pool!, args ?? [])
            : throw new NotSupportedException($"{targetMethod.DeclaringType?.Name}.{targetMethod.Name} is not an operation of the contract.");
    }

    private static FrozenDictionary<MethodInfo, FastFormCall> Build(Type contract)
    {
        var fast = FastContract.For(contract);
        var calls = new Dictionary<MethodInfo, FastFormCall>();
        for (var i = 0; i < fast.Messages.Operations.Count; i++)
        {
            var operation = fast.Messages.Operations[i];
            var client = (IFastClientOperation)Activator.CreateInstance(typeof(FastClientOperation<,>).MakeGenericType(operation.Request.Type, operation.Reply.Type), fast, i)!;
            var description = operation.Description;
            foreach (var form in description.Methods.Where(m => m != description.BeginMethod && m != description.EndMethod))
            {
                calls[form] = client.For(form);
            }
        }

        return calls.ToFrozenDictionary();
    }
}
