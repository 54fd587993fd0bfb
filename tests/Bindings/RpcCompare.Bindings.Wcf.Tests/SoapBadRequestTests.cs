using System.ServiceModel;
using System.Text;
using System.Xml.Linq;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Wcf.Tests;

/// <summary>
/// SOAP requests a toolkit or a hand-written client sends that no WCF client would: each gets a
/// fault that says what is wrong, never "unable to process the request due to an internal error",
/// and a failure of the service itself is logged with the binding and the operation.
/// </summary>
public sealed class SoapBadRequestTests : IAsyncLifetime
{
    private const string ReadDirectoryAction = "urn:rpccompare:v1/rpccompare.v1.FileService/ReadDirectory";
    private static readonly XNamespace s_soap = "http://schemas.xmlsoap.org/soap/envelope/";
    private readonly CapturedLog _log = new(LogLevel.Warning);
    private InProcessHost _host = null!;

    public async Task InitializeAsync() => _host = await InProcessHost.StartAsync(bindings: [BindingNames.WcfHttp], configureServices: services =>
    {
        _log.AddTo(services);
        services.AddRpcService<IFailing, Failing>();
    });

    public async Task DisposeAsync() => await _host.DisposeAsync();

    public static TheoryData<string, string> MissingRequests() => new()
    {
        { "no operation element", "" },
        { "the operation element, no request", """<ReadDirectory xmlns="urn:rpccompare:v1"/>""" },
        { "the request in another namespace", """<ReadDirectory xmlns="urn:rpccompare:v1"><request xmlns="urn:elsewhere"><Path>files</Path></request></ReadDirectory>""" },
        { "a nil request", """<ReadDirectory xmlns="urn:rpccompare:v1"><request xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true"/></ReadDirectory>""" },
    };

    [Theory]
    [MemberData(nameof(MissingRequests))]
    public async Task ABodyWithoutTheRequest_GetsAnInvalidArgumentFault_NamingWhatIsMissing(string what, string body)
    {
        var (code, reason) = await PostAsync(ReadDirectoryAction, body);

        Assert.True((code, reason) == ("InvalidArgument", "ReadDirectory got no request; it needs a ReadDirectoryRequest."), $"{what}: {code}: {reason}");
        Assert.Empty(_log.Lines);
    }

    [Fact]
    public async Task TheOperationElementInAnotherNamespace_GetsAnInvalidArgumentFault_SayingWhatWasExpected()
    {
        var (code, reason) = await PostAsync(ReadDirectoryAction, """<ReadDirectory xmlns="urn:elsewhere"><request><Path>files</Path></request></ReadDirectory>""");

        Assert.Equal("InvalidArgument", code);
        Assert.StartsWith("The request could not be read: ", reason, StringComparison.Ordinal);
        Assert.Contains("urn:elsewhere", reason, StringComparison.Ordinal);
        Assert.Empty(_log.Lines);
    }

    [Fact]
    public async Task AnUnknownOperation_GetsAFaultNamingTheAction()
    {
        var (code, reason) = await PostAsync("urn:rpccompare:v1/rpccompare.v1.FileService/Nope", """<Nope xmlns="urn:rpccompare:v1"/>""");

        Assert.Equal("ActionNotSupported", code);
        Assert.Contains("'urn:rpccompare:v1/rpccompare.v1.FileService/Nope' cannot be processed", reason, StringComparison.Ordinal);
        Assert.Empty(_log.Lines);
    }

    [Fact]
    public async Task AFailureOfTheServiceItself_IsLoggedOnce_WithTheBindingAndTheOperation()
    {
        var (_, reason) = await PostAsync("urn:rpccompare:tests/rpccompare.tests.Failing/Fail", """<Fail xmlns="urn:rpccompare:tests"/>""", "rpccompare.tests.Failing");

        Assert.Contains("unable to process the request due to an internal error", reason, StringComparison.Ordinal);
        Assert.Equal(["Error RpcCompare.Bindings.Wcf.Server.RpcFaultBehavior: Binding wcf-http: urn:rpccompare:tests/rpccompare.tests.Failing/Fail failed; the client was told the server could not process it"],
            _log.Lines);
    }

    [Fact]
    public async Task AWellFormedRequest_IsStillServed()
    {
        using var http = new HttpClient();
        using var response = await SendAsync(http, ReadDirectoryAction, """<ReadDirectory xmlns="urn:rpccompare:v1"><request><Path>files</Path></request></ReadDirectory>""", ServiceNames.FileService);

        Assert.True(response.IsSuccessStatusCode);
        Assert.Contains("entry-00000.txt", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    // The fault's code (local name, without its namespace prefix) and reason.
    private async Task<(string Code, string Reason)> PostAsync(string action, string body, string service = ServiceNames.FileService)
    {
        using var http = new HttpClient();
        using var response = await SendAsync(http, action, body, service);
        var fault = XDocument.Parse(await response.Content.ReadAsStringAsync()).Descendants(s_soap + "Fault").Single();
        var code = (string)fault.Element("faultcode")!;
        return (code[(code.IndexOf(':', StringComparison.Ordinal) + 1)..], (string)fault.Element("faultstring")!);
    }

    private async Task<HttpResponseMessage> SendAsync(HttpClient http, string action, string body, string service)
    {
        using var content = new StringContent($"""<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>{body}</s:Body></s:Envelope>""", Encoding.UTF8, "text/xml");
        content.Headers.Add("SOAPAction", $"\"{action}\"");
        return await http.PostAsync($"{_host.Address(BindingNames.WcfHttp)}/{service}", content).Bounded();
    }

    [ServiceContract(Name = "rpccompare.tests.Failing", Namespace = "urn:rpccompare:tests")]
    public interface IFailing
    {
        [OperationContract]
        void Fail();
    }

    public sealed class Failing : IFailing
    {
        public void Fail() => throw new InvalidOperationException("the service's own bug");
    }
}
