using RpcCompare.Bindings.Push;

namespace RpcCompare.Bindings.Tests.Push;

public sealed class PushVariantTests
{
    [Theory]
    [InlineData(null)]
    [InlineData("stream")]
    [InlineData("multiplexed")]
    public void TheDefaultOrAnOfferedVariant_Passes(string? variant)
    {
        PushVariant.ThrowUnlessOffered(variant, ["stream", "multiplexed"], "grpc-tcp");
    }

    [Theory]
    [InlineData("frames")]
    [InlineData("Stream")]
    public void AVariantNotOffered_IsRefused_NamingTheBindingAndItsVariants(string variant)
    {
        var error = Assert.Throws<ArgumentException>(() => PushVariant.ThrowUnlessOffered(variant, ["stream", "multiplexed"], "grpc-tcp"));

        Assert.Equal($"Binding 'grpc-tcp' has no push variant '{variant}'; it offers: stream, multiplexed. (Parameter 'variant')", error.Message);
    }

    [Fact]
    public void NoOfferedList_IsAProgrammingError()
    {
        Assert.Throws<ArgumentNullException>(() => PushVariant.ThrowUnlessOffered(null, null!, "grpc-tcp"));
    }
}
