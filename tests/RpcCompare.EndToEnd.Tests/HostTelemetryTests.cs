using RpcCompare.Bindings;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests;

/// <summary>
/// The host's telemetry as a team would turn it on: spans exported over OTLP (to a receiver the test
/// plays, since no collector is installed here) and the metrics served for Prometheus to scrape.
/// </summary>
public sealed class HostTelemetryTests
{
    private static readonly string[] s_bindings = [BindingNames.FastUds, BindingNames.GrpcTcp, BindingNames.Pipes];

    [Fact]
    public async Task WithTelemetry_EveryCallIsExportedAsASpan_AndItsDurationIsScraped()
    {
        using var directory = new TemporaryDirectory();
        using var receiver = new OtlpHttpReceiver();
        var metricsPort = FreePort.OnLoopback();
        var endpointsPath = directory.PathFor("endpoints.json");
        await using var host = HostProcess.Start("--bindings", string.Join(',', s_bindings), "--endpoints-file", endpointsPath, "--socket-dir", directory.PathFor("sockets"),
            "--otlp-endpoint", receiver.Address, "--otlp-protocol", "http/protobuf", "--metrics-port", metricsPort.ToString(System.Globalization.CultureInfo.InvariantCulture));
        await host.WaitForEndpointsAsync(endpointsPath);

        foreach (var binding in s_bindings)
        {
            var answer = await Rpcc.RunAsync(["call", "-b", binding, "-e", endpointsPath, "Ping"]);
            Assert.Equal((0, ""), (answer.ExitCode, answer.Error));
        }

        // OTLP in protobuf: the span's name and string attributes are there as UTF-8. The SDK exports a batch every 5 s.
        await Eventually.HoldsAsync(() => s_bindings.All(b => receiver.Traces.Any(t => t.Contains(b, StringComparison.Ordinal)))
                && receiver.Traces.Any(t => t.Contains("rpccompare.v1.FileService/Ping", StringComparison.Ordinal)),
            TestTimeout.Default, () => $"spans received: {receiver.Traces.Count} posts; host output:\n{host.Output}");

        using var http = new HttpClient();
        string metrics = "";
        await Eventually.HoldsAsync(async () =>
            {
                try
                {
                    metrics = await http.GetStringAsync(new Uri($"http://127.0.0.1:{metricsPort}/metrics"));
                }
                catch (HttpRequestException e)
                {
                    metrics = e.Message;
                    return false;
                }

                return s_bindings.All(b => metrics.Contains($"rpccompare_binding=\"{b}\"", StringComparison.Ordinal));
            },
            TestTimeout.Default, () => $"the scrape lacked a binding:\n{metrics}");
        Assert.Contains("rpc_server_call_duration_seconds_bucket{", metrics, StringComparison.Ordinal);
        Assert.Contains("rpc_method=\"Ping\"", metrics, StringComparison.Ordinal);

        // Each binding's open connections (pipes and fast count their own, grpc-tcp's come from Kestrel's), and the push registry's state.
        foreach (var binding in s_bindings)
        {
            Assert.Matches($"rpccompare_connections_open{{[^}}]*rpc_binding=\"{binding}\"", metrics);
        }

        foreach (var name in (string[])["rpccompare_push_topics", "rpccompare_push_subscribers", "rpccompare_push_queue_depth", "rpccompare_push_queue_deepest",
            "rpccompare_push_publications_total", "rpccompare_push_subscribers_dropped_total"])
        {
            Assert.Matches($"\n{name}[{{ ]", metrics);
        }

        Assert.Equal(0, await host.TerminateAsync());
    }

    [Fact]
    public async Task AnOtlpProtocolItDoesNotSpeak_StopsTheHostWithTheReason()
    {
        await using var host = HostProcess.Start("--bindings", "pipes", "--otlp-endpoint", "http://127.0.0.1:4318", "--otlp-protocol", "json");

        Assert.Equal(2, await host.WaitForExitAsync());
        Assert.Contains("--otlp-protocol must be grpc or http/protobuf; got 'json'.", host.Output, StringComparison.Ordinal);
    }
}
