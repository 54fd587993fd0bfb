using System.Text.Json;
using RpcCompare.Bindings;

namespace RpcCompare.Container.Tests;

/// <summary>
/// Clients in their own containers against a host container, sharing its network namespace (as
/// compose's network_mode: service:host does) and its socket volume: the Node.js clients, and the
/// comparison runner measuring every binding.
/// </summary>
[Trait("Category", "Container")]
[Collection(ContainerImages.Collection)]
public sealed class ClientContainerTests(ContainerImages images)
{
    private const string NodeClientImage = "localhost/rpccompare/node-client:latest";

    /// <summary>The certificate the host writes beside its endpoints file, which the Node.js clients trust (the image runs with TLS on).</summary>
    private const string Ca = "/run/rpccompare/tls-certificate.pem";
    private const string RunnerImage = "localhost/rpccompare/runner:latest";

    [Fact]
    public async Task NodeClientContainer_CallsTheHostOverGrpcTcpGrpcUdsAndSoap_AndSeesItHealthy()
    {
        images.AssertBuilt("host");
        images.AssertBuilt("node-client");
        await using var host = await HostContainer.StartAsync();

        // The host's sockets belong to its user (uid 1654, the .NET images' "app"); a client that
        // connects to them runs as the same user, as it would in a pod sharing the volume.
        Task<(int ExitCode, string Output)> NodeAsync(params string[] arguments) =>
            Podman.RunAsync(["run", "--rm", "--user", "1654", .. Podman.Limits, .. host.ShareWith, NodeClientImage, .. arguments]);

        var health = await NodeAsync("grpc", "https://127.0.0.1:50051", "health", "--ca", Ca);
        Assert.True(health.ExitCode == 0, health.Output);
        Assert.Equal("SERVING", Json(health.Output).GetProperty("status").GetString());

        foreach (var target in new[] { "https://127.0.0.1:50051", "unix:/run/rpccompare/grpc.sock" })
        {
            var listing = await NodeAsync("grpc", target, "read-directory", "files", "--ca", Ca);
            Assert.True(listing.ExitCode == 0, listing.Output);
            Assert.Equal(100, Json(listing.Output).GetProperty("Entries").GetArrayLength());
        }

        var soap = await NodeAsync("soap", "https://127.0.0.1:8080", "read-directory", "files", "--ca", Ca);
        Assert.True(soap.ExitCode == 0, soap.Output);
        Assert.Equal(100, Json(soap.Output).GetProperty("Entries").GetProperty("DirectoryEntry").GetArrayLength());

        var refused = await NodeAsync("grpc", "https://127.0.0.1:50051", "read-directory", "../etc", "--ca", Ca);
        Assert.Equal(1, refused.ExitCode);
        Assert.Contains("error: PathRefused:", refused.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunnerContainer_MeasuresEveryBindingOfTheHostContainer()
    {
        images.AssertBuilt("host");
        images.AssertBuilt("runner");
        await using var host = await HostContainer.StartAsync();
        var results = host.Volume.PathFor("results");

        var run = await Podman.RunAsync(TimeSpan.FromMinutes(10),
            ["run", "--rm", .. Podman.Limits, .. host.ShareWith, RunnerImage, "--quick", "--host", host.Volume.PathFor("endpoints.json"), "--output", results]);

        Assert.True(run.ExitCode == 0, run.Output);
        var report = Path.Combine(Assert.Single(Directory.GetDirectories(results)), "report.json");
        using var document = JsonDocument.Parse(await File.ReadAllTextAsync(report));
        var measured = document.RootElement.GetProperty("measurements").EnumerateArray().Select(m => m.GetProperty("binding").GetString()!).ToHashSet();
        // TCP bindings through the shared network namespace, socket bindings and inproc through the volume.
        Assert.Empty(BindingNames.All.Except(measured));
    }

    private static JsonElement Json(string output) => JsonDocument.Parse(output[output.IndexOf('{', StringComparison.Ordinal)..]).RootElement.Clone();
}
