using System.Xml.Linq;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Wcf.Tests;

/// <summary>wcf-http publishes a WSDL per contract at &lt;address&gt;/&lt;service name&gt;?wsdl (one self-contained document, as ?singleWsdl), describing every operation.</summary>
public sealed class WsdlTests : IAsyncLifetime
{
    private static readonly XNamespace s_wsdl = "http://schemas.xmlsoap.org/wsdl/";
    private InProcessHost _host = null!;

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync();

    public async Task DisposeAsync() => await _host.DisposeAsync();

    public static TheoryData<Type> Contracts() => [typeof(IFileService), typeof(ICallShapeService), typeof(IPayloadService)];

    [Theory]
    [MemberData(nameof(Contracts))]
    public async Task Wsdl_IsOneSelfContainedDocument_DescribingEveryOperationOfTheContract(Type contract)
    {
        using var http = new HttpClient();
        var url = $"{_host.Address(BindingNames.WcfHttp)}/{WcfEndpoints.NameOf(contract)}?wsdl";

        var document = XDocument.Parse(await http.GetStringAsync(url).Bounded());

        // One self-contained document (what ?singleWsdl serves): no imported WSDL or schema to fetch.
        Assert.Empty(document.Descendants(s_wsdl + "import"));
        Assert.DoesNotContain(document.Descendants(), e => e.Attribute("schemaLocation") is not null);
        var operations = new HashSet<string>(Operations(document));
        var expected = contract.GetMethods().Select(m => m.Name[..^"Async".Length]).Order(StringComparer.Ordinal);
        Assert.Equal(expected, operations.Order(StringComparer.Ordinal));
        Assert.Contains(document.Descendants(s_wsdl + "service"), s => s.ToString().Contains(url.Split('?')[0], StringComparison.Ordinal));
    }

    [Fact]
    public async Task Wsdl_AddressFollowsTheHostHeader_SoAHostBehindPublishedPortsSendsClientsBack()
    {
        using var http = new HttpClient();
        var address = _host.Address(BindingNames.WcfHttp);
        using var request = new HttpRequestMessage(HttpMethod.Get, $"{address}/{ServiceNames.FileService}?singleWsdl");
        request.Headers.Host = "rpccompare.example:18080";

        using var response = await http.SendAsync(request).Bounded();
        var document = XDocument.Parse(await response.Content.ReadAsStringAsync());

        XNamespace soap = "http://schemas.xmlsoap.org/wsdl/soap/";
        var location = Assert.Single(document.Descendants(soap + "address")).Attribute("location")!.Value;
        Assert.Equal($"http://rpccompare.example:18080/{ServiceNames.FileService}", location);
    }

    private static IEnumerable<string> Operations(XDocument document) =>
        document.Descendants(s_wsdl + "portType").Elements(s_wsdl + "operation").Select(o => (string)o.Attribute("name")!);
}
