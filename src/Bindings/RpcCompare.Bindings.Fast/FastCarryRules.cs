using RpcCompare.Bindings.Carrying;
using RpcCompare.Description;
using RpcCompare.Protobuf.Mapping;

namespace RpcCompare.Bindings.Fast;

/// <summary>
/// What the fast binding carries: every operation the protobuf mapping carries (the same messages
/// as gRPC) except, for now, an IAsyncEnumerable result (a server stream of messages; the push
/// contract's subscription). A Stream parameter or result travels as StreamData frames.
/// </summary>
internal sealed class FastCarryRules : CarryRules
{
    public const string Transport = "the fast binding";

    public static FastCarryRules Instance { get; } = new();

    protected override IEnumerable<string> RefuseContract(ServiceContractDescription contract) =>
        ContractMessages.For(contract.ContractType).RefusalsFor(Transport).Where(r => r.Operation is null).Select(r => r.Reason);

    protected override IEnumerable<string> RefuseOperation(ServiceContractDescription contract, OperationDescription operation)
    {
        var refused = false;
        foreach (var refusal in ContractMessages.For(contract.ContractType).RefusalsFor(Transport).Where(r => r.Operation == operation.Name))
        {
            refused = true;
            yield return refusal.Reason;
        }

        if (refused)
        {
            yield break;
        }

        if (operation.Parameters.Any(p => p.IsStream) && operation.Return is { IsStream: true })
        {
            // The client sends its whole stream before it reads: a service that answers while it reads would wait on it.
            yield return "a Stream both in and out is not carried by the fast binding yet (its client sends the whole request stream before reading the reply)";
        }

        if (operation.Return?.Type is { IsGenericType: true } type && type.GetGenericTypeDefinition() == typeof(IAsyncEnumerable<>))
        {
            yield return "an IAsyncEnumerable result (a stream of messages) is not carried by the fast binding yet";
        }
    }
}
