namespace RpcCompare.Description;

/// <summary>
/// A type that does not load as a service contract by WCF's rules. The message names the
/// contract and gives WCF's own reason, so the team sees what WCF would have told them.
/// </summary>
public sealed class ContractLoadException : Exception
{
    public ContractLoadException(Type contract, string reason, Exception? inner = null)
        : base($"{contract.FullName} does not load as a service contract: {reason}", inner)
    {
        Contract = contract;
        Reason = reason;
    }

    public Type Contract { get; }

    /// <summary>Why, without the contract's name (WCF's message where WCF refused it).</summary>
    public string Reason { get; }
}
