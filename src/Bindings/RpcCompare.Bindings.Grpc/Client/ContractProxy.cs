using System.Collections.Frozen;
using System.Reflection;
using Grpc.Core;
using RpcCompare.Bindings.Grpc.Mapping;

namespace RpcCompare.Bindings.Grpc.Client;

/// <summary>
/// A contract's client over gRPC: a <see cref="DispatchProxy"/> of the contract interface whose
/// every method (every form of every carried operation) goes through the call
/// <see cref="ContractCalls"/> compiled for it.
/// </summary>
internal class ContractProxy : DispatchProxy
{
    private FrozenDictionary<MethodInfo, FormCall> _calls = FrozenDictionary<MethodInfo, FormCall>.Empty;
    private CallInvoker? _invoker;

    /// <summary>A proxy of <typeparamref name="TContract"/> calling through <paramref name="invoker"/>.</summary>
    internal static TContract Create<TContract>(CallInvoker invoker)
        where TContract : class
    {
        var proxy = DispatchProxy.Create<TContract, ContractProxy>();
        var self = (ContractProxy)(object)proxy;
        self._calls = ContractCalls.For(typeof(TContract));
        self._invoker = invoker;
        return proxy;
    }

    protected override object? Invoke(MethodInfo? targetMethod, object?[]? args)
    {
        ArgumentNullException.ThrowIfNull(targetMethod);
        return _calls.TryGetValue(targetMethod, out var call)
            ? call(_invoker!, args ?? [])
            : throw new NotSupportedException($"{targetMethod.DeclaringType?.Name}.{targetMethod.Name} is not an operation of the contract.");
    }
}

/// <summary>Every form's compiled call, built once per contract.</summary>
internal static class ContractCalls
{
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<Type, FrozenDictionary<MethodInfo, FormCall>> Calls = new();

    public static FrozenDictionary<MethodInfo, FormCall> For(Type contract) => Calls.GetOrAdd(contract, static c =>
    {
        var calls = new Dictionary<MethodInfo, FormCall>();
        foreach (var operation in GrpcContractMap.For(c).Operations)
        {
            var client = (IClientOperation)Activator.CreateInstance(typeof(ClientOperation<,>).MakeGenericType(operation.Request.Type, operation.Reply.Type), operation)!;
            var description = operation.Description;
            foreach (var form in description.Methods.Where(m => m != description.BeginMethod && m != description.EndMethod))
            {
                calls[form] = client.For(form);
            }
        }

        return calls.ToFrozenDictionary();
    });
}
