namespace RpcCompare.Bindings.Tests;

public sealed class BindingNamesTests
{
    [Fact]
    public void All_IsEveryBinding_NetworkBindingsFirst_InReportOrder()
    {
        Assert.Equal(["wcf-nettcp", "wcf-uds", "wcf-http", "grpc-tcp", "grpc-uds", "fast-tcp", "fast-uds", "pipes", "inproc"], BindingNames.All);
    }

    [Fact]
    public void AnOfferedName_Passes()
    {
        BindingNames.ThrowUnlessOffered("pipes", ["grpc-tcp", "pipes"]);
    }

    [Theory]
    [InlineData("carrier-pigeon")]
    [InlineData("Pipes")] // names are exact: what a user typed is what a report prints
    [InlineData("")]
    public void ANameNotOffered_IsRefused_ListingTheOfferedOnes(string name)
    {
        var error = Assert.Throws<ArgumentException>(() => BindingNames.ThrowUnlessOffered(name, ["grpc-tcp", "pipes"]));

        Assert.Equal($"Unknown binding '{name}'. Bindings offered: grpc-tcp, pipes. (Parameter 'name')", error.Message);
    }

    [Fact]
    public void NoOfferedList_IsAProgrammingError()
    {
        Assert.Throws<ArgumentNullException>(() => BindingNames.ThrowUnlessOffered("pipes", null!));
    }

    [Fact]
    public void TheBindingsThatTravelOverTcp_AreTheTcpAndHttpOnes()
    {
        Assert.Equal(["wcf-nettcp", "wcf-http", "grpc-tcp", "fast-tcp"], BindingNames.All.Where(BindingNames.TravelsOverTcp));
    }
}
