using System.Text.Json.Nodes;
using RpcCompare.Bindings;
using RpcCompare.Client;

namespace RpcCompare.GeneratedClients.Tests.Node;

/// <summary>
/// A SOAP client that knows only the WSDL the host serves (clients/node/soap-call.mjs, the `soap`
/// package, as zeep or any WSDL toolkit builds one) gets what the typed C# client gets over
/// wcf-http, for every request-reply operation called with nothing given, with zero and empty
/// values, and with ordinary ones.
/// </summary>
[Collection(SharedHost.Name)]
public sealed class SoapFromWsdlTests(HostFixture fixture)
{
    [Fact]
    public async Task EveryOperation_WithNothingZeroOrOrdinaryValues_AnswersAsTheTypedClient()
    {
        var address = fixture.Host.Address(BindingNames.WcfHttp);
        await using var node = await NodeCallProcess.StartAsync("soap-call.mjs", address);
        var factory = RpcClientFactory.CreateDefault();
        var mismatches = new List<string>();
        // The WSDL describes the request-reply contracts (push is duplex or long polling, not in it).
        foreach (var (service, operation, request) in ZeroValueCalls.All.Where(c => c.Service != Contracts.ServiceNames.PushService))
        {
            var expected = await ZeroValueCalls.TypedCallAsync(factory, BindingNames.WcfHttp, address, service, operation, request);
            var answer = await node.CallAsync(service, operation, JsonNode.Parse(request)!.AsObject());
            var actual = answer["error"] is { } error
                ? new JsonObject { ["error"] = error["rpcErrorCode"]?.GetValue<string>() ?? $"fault: {error["message"]}" }
                : ZeroValueCalls.Answer(answer["reply"], service, operation);
            if (!JsonNode.DeepEquals(expected, actual))
            {
                mismatches.Add($"{operation} {request}: typed client got {expected.ToJsonString()}, WSDL-built client got {actual.ToJsonString()}");
            }
        }

        Assert.True(mismatches.Count == 0, string.Join('\n', mismatches));
    }
}
