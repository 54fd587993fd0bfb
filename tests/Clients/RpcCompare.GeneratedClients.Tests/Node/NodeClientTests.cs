using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using RpcCompare.Bindings;
using RpcCompare.Testing;

namespace RpcCompare.GeneratedClients.Tests.Node;

/// <summary>
/// Runs the Node.js clients' own tests (clients/node/test, node's built-in test runner) against
/// this collection's host. They get the host's addresses, the parity calls and what rpcc's client
/// got for each through a JSON file, and must pass every one of their tests.
/// </summary>
[Collection(SharedHost.Name)]
public sealed partial class NodeClientTests(HostFixture fixture)
{
    [Fact]
    public Task GrpcJsClient_MatchesRpccOverTcpAndUds_AndSeesReflectionAndHealth() =>
        // Two parity suites plus the reflection and health checks.
        RunNodeTestsAsync("test/grpc.test.mjs", expectedTests: (2 * ParityCalls.All.Count) + 2);

    [Fact]
    public Task SoapClient_MatchesRpccOverWcfHttp() =>
        RunNodeTestsAsync("test/soap.test.mjs", expectedTests: ParityCalls.All.Count);

    private Task RunNodeTestsAsync(string testFile, int expectedTests) =>
        RunNodeTestsAsync(testFile, expectedTests, ParityFileAsync(fixture.Host.Address, [BindingNames.GrpcTcp, BindingNames.GrpcUds, BindingNames.WcfHttp]));

    /// <summary>Runs a Node.js test file with the parity file given; every one of its <paramref name="expectedTests"/> must pass.</summary>
    internal static async Task RunNodeTestsAsync(string testFile, int expectedTests, Task<JsonObject> parity)
    {
        await NodeModules.EnsureInstalledAsync();
        using var directory = new TemporaryDirectory();
        var parityFile = directory.PathFor("parity.json");
        await File.WriteAllTextAsync(parityFile, (await parity).ToJsonString());

        var (exitCode, output) = await TestProcess.RunAsync(
            "node", ["--test", "--test-reporter=tap", testFile], TimeSpan.FromMinutes(3), NodeModules.Directory,
            new Dictionary<string, string> { ["RPCCOMPARE_PARITY_FILE"] = parityFile });

        Assert.True(exitCode == 0, $"node --test {testFile} failed ({exitCode}):\n{output}");
        // Counting the passes catches a suite that silently registered no test.
        Assert.Equal((expectedTests, 0), (Count(output, "pass"), Count(output, "fail")));
    }

    /// <summary>
    /// Addresses, calls and rpcc's outcome of each call on every binding the Node clients use; with
    /// <paramref name="tls"/>, rpcc trusts the host by it and each binding names <paramref name="ca"/>,
    /// the certificate file the Node.js clients trust.
    /// </summary>
    internal static async Task<JsonObject> ParityFileAsync(Func<string, string> addressOf, IEnumerable<string> bindingNames, Bindings.Security.ClientTlsOptions? tls = null, string? ca = null)
    {
        var bindings = new JsonObject();
        foreach (var binding in bindingNames)
        {
            var address = addressOf(binding);
            await using var rpcc = new RpccClient(binding, address, tls);
            var expected = new JsonObject();
            foreach (var call in ParityCalls.All)
            {
                expected[call.Name] = await ParityCalls.RunReferenceAsync(rpcc, call).Bounded();
            }

            bindings[binding] = new JsonObject { ["address"] = address, ["expected"] = expected, ["ca"] = ca };
        }

        return new JsonObject
        {
            ["calls"] = JsonSerializer.SerializeToNode(ParityCalls.All, ParityCalls.Json),
            ["bindings"] = bindings,
        };
    }

    private static int Count(string tapOutput, string counter) =>
        TapCounter().Matches(tapOutput).Where(m => m.Groups["name"].Value == counter).Select(m => int.Parse(m.Groups["count"].Value, System.Globalization.CultureInfo.InvariantCulture)).DefaultIfEmpty(-1).Last();

    [GeneratedRegex(@"^# (?<name>\w+) (?<count>\d+)$", RegexOptions.Multiline)]
    private static partial Regex TapCounter();
}
