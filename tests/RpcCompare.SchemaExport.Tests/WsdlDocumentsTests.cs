using System.Xml.Linq;
using RpcCompare.Bindings.Wcf;
using RpcCompare.Testing;

namespace RpcCompare.SchemaExport.Tests;

public sealed class WsdlDocumentsTests
{
    private static readonly XNamespace Wsdl = "http://schemas.xmlsoap.org/wsdl/";
    private static readonly XNamespace Soap = "http://schemas.xmlsoap.org/wsdl/soap/";

    [Fact]
    public async Task CheckedInWsdl_MatchesWhatWcfHttpServes() =>
        CheckedInFiles.AssertMatch("wsdl", "*.wsdl", await WsdlDocuments.GenerateAsync().Bounded());

    [Fact]
    public async Task EachDocument_IsSelfContainedAndPointsAtThePublishedAddress()
    {
        var documents = await WsdlDocuments.GenerateAsync().Bounded();

        Assert.Equal(WsdlDocuments.Services.Count, documents.Count);
        foreach (var contract in WsdlDocuments.Services)
        {
            var service = WcfEndpoints.NameOf(contract);
            var wsdl = XDocument.Parse(documents[$"{service}.wsdl"]);
            // No wsdl:import and no schemaLocation: svcutil and node-soap need nothing else.
            Assert.Empty(wsdl.Descendants(Wsdl + "import"));
            Assert.DoesNotContain(wsdl.Descendants(), e => e.Attribute("schemaLocation") is not null);
            var address = Assert.Single(wsdl.Descendants(Soap + "address")).Attribute("location")!.Value;
            Assert.Equal($"{WsdlDocuments.PublishedAddress}/{service}", address);
            var operations = wsdl.Root!.Elements(Wsdl + "portType").Single().Elements(Wsdl + "operation").Select(o => o.Attribute("name")!.Value);
            Assert.Equal(contract.GetMethods().Select(m => m.Name[..^"Async".Length]).Order(StringComparer.Ordinal), operations.Order(StringComparer.Ordinal));
        }
    }
}
