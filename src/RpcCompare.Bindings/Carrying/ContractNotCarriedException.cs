namespace RpcCompare.Bindings.Carrying;

/// <summary>
/// A binding was asked to serve (or call) contracts with shapes it cannot carry. Thrown before
/// the binding listens, so the refusal comes at start-up with every reason at once, never as a
/// surprise at a client's first call.
/// </summary>
public sealed class ContractNotCarriedException : Exception
{
    public ContractNotCarriedException(IReadOnlyList<CarryRefusal> refusals)
        : base(Describe(refusals))
    {
        Refusals = refusals;
    }

    public IReadOnlyList<CarryRefusal> Refusals { get; }

    private static string Describe(IReadOnlyList<CarryRefusal> refusals)
    {
        ArgumentNullException.ThrowIfNull(refusals);
        return refusals.Count == 1
            ? refusals[0].ToString()
            : $"{refusals.Count} shapes are not carried:{string.Concat(refusals.Select(r => $"{Environment.NewLine}  {r}"))}";
    }
}
