namespace RpcCompare.Workloads;

/// <summary>
/// The calls the comparison runner measures for one service contract, written by the team that
/// owns the contract, in the same assembly as its implementation. The runner creates the class
/// with its parameterless constructor, asks it once for its calls, and makes each one in a closed
/// loop over every binding that carries the contract, through a client proxy of
/// <typeparamref name="TContract"/> (docs/your-contracts.md).
/// </summary>
/// <typeparam name="TContract">The [ServiceContract] interface the calls are made on.</typeparam>
/// <example>
/// <code>
/// public sealed class CalculatorWorkload : IRpcWorkload&lt;ICalculator&gt;
/// {
///     public void Describe(RpcWorkloadCalls&lt;ICalculator&gt; calls) => calls
///         .Add("Add", c => c.Add(1, 2))
///         .Add("PlaceOrder 10 lines", c => c.PlaceOrderAsync(s_order));
/// }
/// </code>
/// </example>
public interface IRpcWorkload<TContract>
    where TContract : class
{
    /// <summary>Adds the calls to measure. Build arguments here, once: the loop measures the call, not the building of its arguments.</summary>
    void Describe(RpcWorkloadCalls<TContract> calls);
}
