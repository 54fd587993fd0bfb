using System.Collections.Concurrent;
using RpcCompare.Protobuf.Mapping;

namespace RpcCompare.Bindings.Fast.Client;

/// <summary>A contract as a client binds it on a connection: its proto service name and its operations' names, in the mapping's order.</summary>
internal sealed class FastContract
{
    private static readonly ConcurrentDictionary<Type, FastContract> Contracts = new();

    private FastContract(ContractMessages messages)
    {
        Messages = messages;
        OperationNames = [.. messages.Operations.Select(o => o.Name)];
    }

    public ContractMessages Messages { get; }

    public string ServiceName => Messages.ServiceName;

    public IReadOnlyList<string> OperationNames { get; }

    public static FastContract For(Type contract) => Contracts.GetOrAdd(contract, static c => new FastContract(ContractMessages.For(c)));
}
