using RpcCompare.ContractCorpus;

namespace RpcCompare.Description.Tests;

/// <summary>Contracts WCF refuses are refused with WCF's own reason and the contract's name.</summary>
public class ContractRefusalTests
{
    [Theory]
    [InlineData(typeof(IOverloadsWithoutNames), "Cannot have two operations in the same contract with the same name")]
    [InlineData(typeof(IInParameter), "Log")]
    [InlineData(typeof(IOneWayWithReturn), "IsOneWay=true must not declare output parameters, by-reference parameters or return values")]
    [InlineData(typeof(IOneWayWithOut), "IsOneWay=true must not declare output parameters, by-reference parameters or return values")]
    [InlineData(typeof(IDerivedFromUnattributed), "does not have ServiceContractAttribute")]
    [InlineData(typeof(INotAContract), "Attempted to get contract type for INotAContract, but that type is not a ServiceContract, nor does it inherit a ServiceContract.")]
    [InlineData(typeof(ContractClass), "a service contract must be an interface.")]
    public void Refused_WithWcfsReason(Type contract, string reason)
    {
        var error = Assert.Throws<ContractLoadException>(() => ContractLoader.Read(contract));

        Assert.Equal(contract, error.Contract);
        Assert.Contains(reason, error.Reason, StringComparison.Ordinal);
        Assert.Equal($"{contract.FullName} does not load as a service contract: {error.Reason}", error.Message);
    }

    [Fact]
    public void Refusal_IsTheSameEveryTime()
    {
        var first = Assert.Throws<ContractLoadException>(() => ContractLoader.Load(typeof(IOverloadsWithoutNames)));
        var second = Assert.Throws<ContractLoadException>(() => ContractLoader.Load(typeof(IOverloadsWithoutNames)));

        Assert.Same(first, second);
    }

    [Fact]
    public void Null_IsAnArgumentError()
    {
        Assert.Throws<ArgumentNullException>(() => ContractLoader.Load(null!));
    }
}
