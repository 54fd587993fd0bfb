using System.Collections.Concurrent;
using System.Globalization;
using System.Text.Json;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

namespace RpcCompare.Container.Tests;

/// <summary>
/// docker/fleet/compose.yaml run by podman-compose: three host replicas, Redis, HAProxy and Prometheus
/// on the fleet's own network, reached only through HAProxy's loopback ports, as the README says.
/// </summary>
[Trait("Category", "Container")]
[Collection(ContainerImages.Collection)]
public sealed class FleetComposeTests(ContainerImages images)
{
    private static readonly string[] s_replicas = ["host-1", "host-2", "host-3"];

    [Fact]
    public async Task TheFleet_ServesEveryTcpBindingAndPushThroughHaproxy_AndPrometheusScrapesEveryReplica()
    {
        images.AssertBuilt("host");
        images.AssertBuilt("fleet");
        var project = "rpccompare-fleet-test-" + Guid.NewGuid().ToString("N")[..8];
        try
        {
            var up = await ComposeAsync(project, "up", "-d", "--no-build");
            Assert.True(up.ExitCode == 0, up.Output);
            // podman-compose 1.0.3 exits 0 even when a container fails to start (a port another fleet holds): all six must run.
            var running = await Podman.RunAsync("ps", "-q", "--filter", $"label=io.podman.compose.project={project}", "--filter", "status=running");
            Assert.True(running.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Count(l => !l.Contains(' ', StringComparison.Ordinal)) == 6, $"not every service runs:\n{running.Output}\n{up.Output}");
            using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
            // A server starts UP before its first check: wait for each replica's gRPC health check to have passed (L7OK) in all four backends.
            await Eventually.HoldsAsync(async () => (await ReadAsync(http, "http://127.0.0.1:8404/metrics")) is { } metrics
                    && s_replicas.All(r => metrics.Split('\n').Count(l => l.StartsWith("haproxy_server_check_status{", StringComparison.Ordinal)
                        && l.Contains($"server=\"{r}\",state=\"L7OK\"}} 1", StringComparison.Ordinal)) == 4),
                TimeSpan.FromSeconds(90), () => "HAProxy never had every replica's health check passed in its four backends");

            var endpoints = EndpointsFile.Read(RepositoryPaths.Combine("docker", "fleet", "endpoints.json")).Addresses;
            using var factory = RpcClientFactory.CreateDefault();
            foreach (var (binding, address) in endpoints)
            {
                await using var session = new RpcClientSession(factory, binding, address);
                Assert.Equal(100, (await session.Get<IFileService>().ReadDirectoryAsync(new ReadDirectoryRequest { Path = "files" }).Bounded()).Entries.Length);
            }

            // Push across the replicas: a subscriber and a publisher through the balancer, each on a replica HAProxy chose.
            await using var subscriber = factory.CreatePushClient(BindingNames.FastTcp, endpoints[BindingNames.FastTcp]);
            var received = new ConcurrentQueue<Notification>();
            await using var subscription = await subscriber.SubscribeAsync("fleet", received.Enqueue).Bounded();
            await using var publisher = factory.CreatePushClient(BindingNames.GrpcTcp, endpoints[BindingNames.GrpcTcp]);
            for (var i = 1; i <= 3; i++)
            {
                await publisher.PublishAsync(new Notification { Topic = "fleet", Items = [i.ToString(CultureInfo.InvariantCulture)] }).Bounded();
            }

            await Eventually.HoldsAsync(() => received.Count >= 3, TestTimeout.Default, () => $"received {received.Count} of 3");
            Assert.Equal([1L, 2, 3], received.Select(n => n.Sequence));

            await Eventually.HoldsAsync(async () => TargetsUp(await ReadAsync(http, "http://127.0.0.1:9090/api/v1/targets")) == 4,
                TimeSpan.FromSeconds(60), () => "Prometheus did not scrape the three replicas and HAProxy");
        }
        finally
        {
            // podman-compose 1.0.3's down leaves the replicas' anonymous volumes and the named ones: remove the containers with theirs first.
            var containers = await Podman.RunAsync("ps", "-a", "-q", "--filter", $"label=io.podman.compose.project={project}");
            foreach (var container in containers.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                await Podman.RunAsync("rm", "-f", "-v", container);
            }

            await ComposeAsync(project, "down");
            foreach (var volume in new[] { "data", "redis" })
            {
                await Podman.RunAsync("volume", "rm", "-f", $"{project}_{volume}");
            }

            await Podman.RunAsync("network", "rm", "-f", $"{project}_default");
        }
    }

    private static async Task<string?> ReadAsync(HttpClient http, string address)
    {
        try
        {
            return await http.GetStringAsync(new Uri(address));
        }
        catch (Exception e) when (e is HttpRequestException or TaskCanceledException)
        {
            return null;
        }
    }

    private static int TargetsUp(string? targets)
    {
        if (targets is null)
        {
            return 0;
        }

        using var document = JsonDocument.Parse(targets);
        return document.RootElement.GetProperty("data").GetProperty("activeTargets").EnumerateArray()
            .Count(t => t.GetProperty("health").GetString() == "up");
    }

    private static Task<(int ExitCode, string Output)> ComposeAsync(string project, params string[] arguments) =>
        TestProcess.RunAsync("podman-compose",
            [$"--podman-args={string.Join(' ', Podman.Global)}", "-p", project, "-f", RepositoryPaths.Combine("docker", "fleet", "compose.yaml"), .. arguments],
            TimeSpan.FromMinutes(2), RepositoryPaths.Root);
}
